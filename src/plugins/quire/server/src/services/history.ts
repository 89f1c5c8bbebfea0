/**
 * History and trash (CONTRACT section 12): the versions of a section (kept by services/edits on
 * every change of content), restoring one as a new revision, and the article's trash of
 * deleted sections (30 days), restored with their id, content and history.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { notFound } from '../../../../../kernel/errors';
import type { Precondition } from '../../../../../kernel/conditional';
import { iso, knexOf, tableName } from '../../../../../kernel/db';
import { anchorsOf, resolveAnchor, sortIds, type AnchorScope } from '../domain/anchors';
import { outlineTag, sectionTag } from '../domain/etags';
import type { SectionContent } from '../domain/markdown';
import type { EditOp } from '../schemas/inputs';
import { articleRowId, articleUuid, findByAnchor, TABLE } from './store';
import { sectionScope, type Actor, type EditOutcome } from './edits';

/** Deleted sections stay restorable this long. */
export const TRASH_DAYS = 30;
const TRASH_MS = TRASH_DAYS * 24 * 60 * 60 * 1000;

const trashScope = (articleId: string): AnchorScope => ({ item: 'deleted section', listRoute: `GET /api/articles/${articleId}/trash` });

/** Who made a version; rows from before history was kept name nobody. */
const byOf = (kind: string | null, name: string | null) => ({ kind: (kind ?? 'human') as Actor['kind'], name: name ?? '' });

const REVISION_COLUMNS = ['rev', 'title', 'level', 'words', 'source', 'by_kind', 'by_name'];

function entryOf(row, madeAt: unknown) {
  return {
    rev: Number(row.rev),
    title: row.title,
    level: Number(row.level),
    words: Number(row.words),
    source: row.source,
    createdAt: iso(madeAt) ?? new Date(0).toISOString(),
    by: byOf(row.by_kind, row.by_name),
  };
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const revisions = () => tableName(strapi, TABLE.revisions);
  const trash = () => tableName(strapi, TABLE.trash);
  const edits = () => strapi.plugin('quire').service('edits');

  /** The section an anchor names, with what its history needs (one indexed query). */
  async function sectionOf(userId: number, rawArticleId: string, rawAnchor: string) {
    return findByAnchor(strapi, TABLE.sections, ['uuid', 'article_id', 'markdown', 'html', 'updated_at', ...REVISION_COLUMNS], {
      userId,
      rawArticleId,
      rawAnchor,
      scope: sectionScope(articleUuid(rawArticleId)),
    });
  }

  const noRevision = (articleId: string, anchor: string, rev: number) =>
    notFound(`Section ${anchor} has no revision ${rev}.`, `Call GET /api/articles/${articleId}/sections/${anchor}/revisions for the revisions it has.`);

  /** Trash rows older than 30 days go, with their history (lazily, per article, on every trash access). */
  async function purge(k: Knex, articleRow: number) {
    const cutoff = new Date(Date.now() - TRASH_MS);
    const expired = await k(trash()).where({ article_id: articleRow }).andWhere('deleted_at', '<', cutoff).select('uuid');
    if (!expired.length) return;
    const ids = expired.map((r) => r.uuid);
    await k(revisions()).where({ article_id: articleRow }).whereIn('section_uuid', ids).delete();
    await k(trash()).where({ article_id: articleRow }).whereIn('uuid', ids).delete();
  }

  const api = {
    /** Versions of a section, newest first, the current one included. */
    async list(userId: number, rawArticleId: string, rawAnchor: string) {
      const { row } = await sectionOf(userId, rawArticleId, rawAnchor);
      const k = await knexOf(strapi);
      const older = await k(revisions())
        .where({ article_id: row.article_id, section_uuid: row.uuid })
        .orderBy('rev', 'desc')
        .select([...REVISION_COLUMNS, 'made_at']);
      return { revisions: [entryOf(row, row.updated_at), ...older.map((r) => entryOf(r, r.made_at))] };
    },

    /** One version with its content; 404 when the section has no such revision (any more). */
    async get(userId: number, rawArticleId: string, rawAnchor: string, rev: number) {
      const { row, anchor } = await sectionOf(userId, rawArticleId, rawAnchor);
      const version = await api.versionOf(row, rev);
      if (!version) throw noRevision(articleUuid(rawArticleId), anchor, rev);
      return { revision: version.record };
    },

    async versionOf(row, rev: number) {
      const toRecord = (r, madeAt) => ({ ...entryOf(r, madeAt), markdown: r.source === 'html' ? null : (r.markdown ?? ''), html: r.html ?? '' });
      if (Number(row.rev) === rev) return { record: toRecord(row, row.updated_at), row };
      const k = await knexOf(strapi);
      const found = await k(revisions())
        .where({ article_id: row.article_id, section_uuid: row.uuid, rev })
        .first([...REVISION_COLUMNS, 'markdown', 'html', 'made_at']);
      return found ? { record: toRecord(found, found.made_at), row: found } : null;
    },

    /** Makes a version current again, as a new revision (a replace with its content: one implementation). */
    async restore(userId: number, rawArticleId: string, rawAnchor: string, rev: number, write: { actor: Actor; ifMatch?: string }) {
      const { row, anchor } = await sectionOf(userId, rawArticleId, rawAnchor);
      const version = await api.versionOf(row, rev);
      if (!version) throw noRevision(articleUuid(rawArticleId), anchor, rev);
      const v = version.row;
      const content: SectionContent = {
        level: Number(v.level),
        title: v.title,
        words: Number(v.words),
        source: v.source,
        markdown: v.source === 'html' ? null : (v.markdown ?? ''),
        html: v.html ?? '',
        htmlText: v.source === 'html' ? (await strapi.plugin('quire').service('workers').canvasSection(v.html ?? '')).htmlText : null,
      };
      const op = { op: 'replace', section: row.uuid, markdown: content.markdown ?? '', ifMatch: write.ifMatch } as EditOp;
      const outcome: EditOutcome = await edits().apply(userId, rawArticleId, [op], { actor: write.actor, single: true, contents: new Map([[0, [content]]]), restoredRev: rev });
      const item = outcome.outline.find(row.uuid)!;
      const section = await strapi.plugin('quire').service('sections').get(userId, rawArticleId, row.uuid);
      return { data: { section, outline: outcome.outline.entries() }, etag: sectionTag(item.uuid, item.rev) };
    },

    /** The article's trash, most recently deleted first, anchors unique among it. */
    async listTrash(userId: number, rawArticleId: string) {
      const id = await articleRowId(strapi, userId, rawArticleId);
      const k = await knexOf(strapi);
      await purge(k, id);
      const rows = await k(trash())
        .where({ article_id: id })
        .orderBy([
          { column: 'deleted_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .select(['uuid', 'title', 'level', 'words', 'deleted_at', 'deleted_by_kind', 'deleted_by_name']);
      const anchors = anchorsOf(rows.map((r) => r.uuid));
      return {
        sections: rows.map((r) => ({
          id: r.uuid,
          anchor: anchors.get(r.uuid)!,
          title: r.title,
          level: Number(r.level),
          words: Number(r.words),
          deletedAt: iso(r.deleted_at)!,
          by: byOf(r.deleted_by_kind, r.deleted_by_name),
        })),
      };
    },

    /** Puts a deleted section back (after, before, or at the end) with its id, content and history. */
    async restoreFromTrash(userId: number, rawArticleId: string, rawAnchor: string, placement: { after?: string; before?: string }, write: { actor: Actor; ifMatch?: Precondition }) {
      const uuid = articleUuid(rawArticleId);
      const outcome: EditOutcome = await edits().withSession(userId, rawArticleId, { actor: write.actor, ifMatch: write.ifMatch, single: true }, async (session) => {
        await purge(session.trx, session.articleRowId);
        const rows = await session.trx(trash()).where({ article_id: session.articleRowId }).select('*');
        const id = resolveAnchor(sortIds(rows.map((r) => r.uuid)), rawAnchor, trashScope(uuid));
        await session.restoreTrashed(
          rows.find((r) => r.uuid === id),
          placement,
        );
      });
      return { data: { outline: outcome.outline.entries() }, etag: outlineTag(uuid, outcome.outlineRev) };
    },
  };
  return api;
};
