/**
 * History (CONTRACT section 12): the versions of a section, kept by the edits engine on every
 * change of content (VersionLog), and restoring one as a new revision (a replace through the
 * engine). The trash is services/trash.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { notFound } from '#kernel/errors';
import { iso } from '#kernel/db';
import { sectionTag } from '../domain/etags';
import type { SectionContent } from '../domain/markdown';
import { sectionScope } from '../domain/scopes';
import type { EditOp } from '../schemas/inputs/edits';
import { quireConfig } from '../config';
import { currentVersionOf, revisionRepository, revisionRowOf, type RevisionRow, type SectionVersion } from '../repositories/revisions';
import { sectionRepository, type SectionRow } from '../repositories/sections';
import { articleUuid, foundByAnchor } from './article-lookup';
import type { Actor, EditOutcome } from './edit-types';
import { byOf } from './trash';
import { getService } from './get-service';

export { TRASH_DAYS } from './trash';

/** A version as the history routes list it. */
function entryOf(version: SectionVersion) {
  return {
    rev: version.rev,
    title: version.title,
    level: version.level,
    words: version.words,
    source: version.source,
    createdAt: version.madeAt ?? new Date(0).toISOString(),
    by: byOf(version.by.kind, version.by.name),
  };
}

/**
 * The versions one edits request replaced: kept as the ops run, written together at the end
 * (one INSERT per 100: an edits request of many ops pays one round trip, not one per op), then
 * retention: the newest QUIRE_REVISIONS_KEEP versions of a section stay, older ones go,
 * checked every 10th revision.
 */
export class VersionLog {
  private readonly kept: RevisionRow[] = [];
  private readonly revisions: ReturnType<typeof revisionRepository>;

  constructor(
    private readonly strapi: Core.Strapi,
    private readonly articleRowId: number,
    private readonly now: Date,
    /** The live canvas's bursts: the same editor's version younger than this many seconds is replaced, not kept. */
    private readonly coalesce?: { seconds: number; by: { kind: string; name: string } },
  ) {
    this.revisions = revisionRepository(strapi);
  }

  /** Keeps a section's current version (before it changes). */
  keep(row: SectionRow): void {
    if (!quireConfig(this.strapi).keepHistory) return;
    const burst = this.coalesce;
    if (burst && row.by_kind === burst.by.kind && row.by_name === burst.by.name && row.updated_at && this.now.getTime() - new Date(iso(row.updated_at)!).getTime() < burst.seconds * 1000) return;
    this.kept.push(revisionRowOf(this.articleRowId, row, this.now));
  }

  async flush(trx: Knex): Promise<void> {
    await this.revisions.in(trx).insertMany(this.kept);
    const keep = quireConfig(this.strapi).revisionsKeep;
    for (const { section_uuid, rev } of this.kept) {
      if (rev > keep && rev % 10 === 0) await this.revisions.in(trx).pruneUpTo(this.articleRowId, section_uuid, rev - keep);
    }
    this.kept.length = 0;
  }
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const revisions = revisionRepository(strapi);
  const edits = () => getService(strapi, 'edits');

  /** The section an anchor names, with what its history needs (one indexed query). */
  async function sectionOf(userId: number, rawArticleId: string, rawAnchor: string) {
    return foundByAnchor(sectionRepository(strapi).versionByAnchor, {
      userId,
      rawArticleId,
      rawAnchor,
      scope: sectionScope(articleUuid(rawArticleId)),
    });
  }

  const noRevision = (articleId: string, anchor: string, rev: number) =>
    notFound(`Section ${anchor} has no revision ${rev}.`, `Call GET /api/articles/${articleId}/sections/${anchor}/revisions for the revisions it has.`);

  const api = {
    /** Versions of a section, newest first, the current one included. */
    async list(userId: number, rawArticleId: string, rawAnchor: string) {
      const { row } = await sectionOf(userId, rawArticleId, rawAnchor);
      const older = await revisions.list(row.article_id, row.uuid);
      return { revisions: [entryOf(currentVersionOf(row)), ...older.map(entryOf)] };
    },

    /** The versions of a section that came from an accepted suggestion, newest first, with who accepted each (the panel's history). */
    async acceptedVersions(userId: number, rawArticleId: string, rawAnchor: string) {
      const { row } = await sectionOf(userId, rawArticleId, rawAnchor);
      const accepted: Map<number, Actor> = await getService(strapi, 'suggestions').acceptedRevisions(Number(row.article_id), row.uuid);
      return { accepted: [...accepted].sort(([a], [b]) => b - a).map(([rev, acceptedBy]) => ({ rev, acceptedBy })) };
    },

    /** One version with its content; 404 when the section has no such revision (any more). */
    async get(userId: number, rawArticleId: string, rawAnchor: string, rev: number) {
      const { row, anchor } = await sectionOf(userId, rawArticleId, rawAnchor);
      const version = await api.versionOf(row, rev);
      if (!version) throw noRevision(articleUuid(rawArticleId), anchor, rev);
      return { revision: version.record };
    },

    async versionOf(row: SectionRow, rev: number) {
      const toRecord = (v: SectionVersion) => ({ ...entryOf(v), markdown: v.source === 'html' ? null : (v.markdown ?? ''), html: v.html ?? '' });
      if (Number(row.rev) === rev) {
        const current = currentVersionOf(row);
        return { record: toRecord(current), row: current };
      }
      const found = await revisions.get(Number(row.article_id), row.uuid, rev);
      return found ? { record: toRecord(found), row: found } : null;
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
        htmlText: v.source === 'html' ? (await getService(strapi, 'workers').canvasSection(v.html ?? '')).htmlText : null,
      };
      const op = { op: 'replace', section: row.uuid, markdown: content.markdown ?? '', ifMatch: write.ifMatch } as EditOp;
      const outcome: EditOutcome = await edits().apply(userId, rawArticleId, [op], { actor: write.actor, single: true, contents: new Map([[0, [content]]]), restoredRev: rev });
      const item = outcome.outline.find(row.uuid)!;
      const section = await getService(strapi, 'sections').get(userId, rawArticleId, row.uuid);
      return { data: { section, outline: outcome.outline.entries() }, etag: sectionTag(item.uuid, item.rev) };
    },
  };
  return api;
};
