/**
 * The article's trash (CONTRACT section 12): a deleted section keeps its content, revision and
 * authorship there for 30 days (the edits engine puts it there), and is restored with its id,
 * content and history (a one-operation session of the edits engine).
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import type { Precondition } from '#kernel/conditional';
import { anchorsOf, resolveAnchor, sortIds, type AnchorScope } from '../domain/anchors';
import { outlineTag } from '../domain/etags';
import { revisionRepository } from '../repositories/revisions';
import { articleRowId, articleUuid } from './article-lookup';
import { trashRepository } from '../repositories/trash';
import type { Actor, EditOutcome } from './edit-types';
import { getService } from './get-service';

/** Deleted sections stay restorable this long. */
export const TRASH_DAYS = 30;
const TRASH_MS = TRASH_DAYS * 24 * 60 * 60 * 1000;

const trashScope = (articleId: string): AnchorScope => ({ item: 'deleted section', listRoute: `GET /api/articles/${articleId}/trash` });

/** Who made a version; rows from before history was kept name nobody. */
export const byOf = (kind: string | null, name: string | null) => ({ kind: (kind ?? 'human') as Actor['kind'], name: name ?? '' });

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const trash = trashRepository(strapi);
  const revisions = revisionRepository(strapi);
  const edits = () => getService(strapi, 'edits');

  /** Trash rows older than 30 days go, with their history (lazily, per article, on every trash access). */
  async function purge(articleRow: number, trx?: Knex) {
    const [inTrash, history] = trx ? [trash.in(trx), revisions.in(trx)] : [trash, revisions];
    const ids = await inTrash.expired(articleRow, new Date(Date.now() - TRASH_MS));
    if (!ids.length) return;
    await history.removeFor(articleRow, ids);
    await inTrash.removeMany(articleRow, ids);
  }

  return {
    /** The article's trash, most recently deleted first, anchors unique among it. */
    async list(userId: number, rawArticleId: string) {
      const id = await articleRowId(strapi, userId, rawArticleId);
      await purge(id);
      const rows = await trash.list(id);
      const anchors = anchorsOf(rows.map((r) => r.uuid));
      return {
        sections: rows.map((r) => ({
          id: r.uuid,
          anchor: anchors.get(r.uuid)!,
          title: r.title,
          level: r.level,
          words: r.words,
          deletedAt: r.deletedAt,
          by: byOf(r.deletedBy.kind, r.deletedBy.name),
        })),
      };
    },

    /** Puts a deleted section back (after, before, or at the end) with its id, content and history. */
    async restore(userId: number, rawArticleId: string, rawAnchor: string, placement: { after?: string; before?: string }, write: { actor: Actor; ifMatch?: Precondition }) {
      const uuid = articleUuid(rawArticleId);
      const outcome: EditOutcome = await edits().withSession(userId, rawArticleId, { actor: write.actor, ifMatch: write.ifMatch, single: true }, async (session) => {
        await purge(session.articleRowId, session.trx);
        const rows = await trash.in(session.trx).all(session.articleRowId);
        const id = resolveAnchor(sortIds(rows.map((r) => r.uuid)), rawAnchor, trashScope(uuid));
        await session.restoreTrashed(rows.find((r) => r.uuid === id)!, placement);
      });
      return { data: { outline: outcome.outline.entries() }, etag: outlineTag(uuid, outcome.outlineRev) };
    },
  };
};
