/**
 * Sections (CONTRACT sections 5 to 9): outlines and single-section reads, and the single-section
 * writes, each a one-operation edit through the one engine (services/edits). SQL is in
 * repositories/sections.
 */
import type { Core } from '@strapi/strapi';
import type { Precondition } from '#kernel/conditional';
import { outlineTag, sectionTag } from '../domain/etags';
import { emptySection, type SectionContent } from '../domain/markdown';
import { ranksBetween } from '../domain/ordering';
import { Outline, type OutlineItem } from '../domain/outline';
import type { EditOp } from '../schemas/inputs/edits';
import type { OutlineEntry, SectionRecord } from '../schemas/records';
import { sectionScope } from '../domain/scopes';
import { articleRepository } from '../repositories/articles';
import { sectionRecord, sectionRepository } from '../repositories/sections';
import { articleNotFound, articleUuid, foundByAnchor } from './article-lookup';
import type { Actor, EditOptions, EditOutcome } from './edit-types';
import { getService } from './get-service';

export type { SectionRecord };

export { sectionScope };

/** Where new or moved sections go: after or before an anchor, or (neither) at the end. */
export interface Placement {
  after?: string;
  before?: string;
}

/** What a single-section write carries besides its content: who writes, and its preconditions. */
export interface SectionWrite {
  actor: Actor;
  /** The section's ETag (If-Match on PATCH, DELETE, move). */
  ifMatch?: string;
  /** The outline's precondition (If-Match on POST sections). */
  outlineIfMatch?: Precondition;
  dryRun?: boolean;
  /** The live canvas: history coalesced per editor's burst (services/edits `coalesceSeconds`). */
  coalesceSeconds?: number;
  /** Runs in the write's transaction once it is done (the live canvas records the revision it stored). */
  afterOps?: EditOptions['afterOps'];
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const sections = sectionRepository(strapi);
  const articles = articleRepository(strapi);
  const cache = () => getService(strapi, 'outlines');
  const edits = () => getService(strapi, 'edits');

  /** A single-section route: a one-operation edit (services/edits), without the `ops[0]` prefix on errors. */
  const one = (userId: number, rawArticleId: string, op: EditOp, write: SectionWrite) =>
    edits().apply(userId, rawArticleId, [op], { actor: write.actor, ifMatch: write.outlineIfMatch, dryRun: write.dryRun, single: true, coalesceSeconds: write.coalesceSeconds, afterOps: write.afterOps }) as Promise<EditOutcome>;

  const outlineEtag = (outcome: EditOutcome) => outlineTag(outcome.articleUuid, outcome.outlineRev);

  const api = {
    /**
     * The outline of an owned article: the article row (id and outline revision), then the
     * cached outline of that revision, or the sections in one query.
     */
    async outlineOf(userId: number, rawArticleId: string): Promise<{ outline: Outline; etag: string }> {
      const uuid = articleUuid(rawArticleId);
      const article = await articles.outlineRevOf(userId, uuid);
      if (!article) throw articleNotFound(rawArticleId);
      return { outline: await api.outlineOfRow(article.id, article.outlineRev), etag: outlineTag(uuid, article.outlineRev) };
    },

    /** The outline of an article row at revision `rev` (the caller read both from the row). */
    async outlineOfRow(articleRowId: number, rev: number): Promise<Outline> {
      const cached = cache().get(articleRowId, rev);
      if (cached) return cached;
      // Rows and revision from one statement, so the cached pair is consistent.
      const rows = await sections.itemsWithRev(articleRowId);
      const outline = Outline.of(rows);
      if (rows.length) cache().set(articleRowId, Number(rows[0].outline_rev), outline);
      return outline;
    },

    /** The outline's entries (with `rev` when asked) and its ETag. */
    async outline(userId: number, rawArticleId: string, options: { includeRev?: boolean } = {}): Promise<{ outline: OutlineEntry[]; etag: string }> {
      const { outline, etag } = await api.outlineOf(userId, rawArticleId);
      return { outline: options.includeRev ? outline.entriesWithRev() : outline.entries(), etag };
    },

    /** Sections of an article row, in order, with their full content (publish, export). */
    async listSections(articleRowId: number): Promise<SectionRecord[]> {
      const rows = await sections.withContent(articleRowId);
      const outline = Outline.of(rows);
      const byId = new Map(rows.map((row) => [row.uuid, row]));
      return outline.items.map((item) => sectionRecord(byId.get(item.uuid), outline.anchorOf(item.uuid)));
    },

    /** Inserts the first sections of a new article (inside its creating transaction). */
    async insertInitial(articleRowId: number, contents: SectionContent[], actor?: Actor): Promise<Outline> {
      const all = contents.length ? contents : [emptySection()];
      return Outline.of(await sections.insert(articleRowId, all, ranksBetween(null, null, all.length), actor));
    },

    /** One section by anchor (see findByAnchor: one indexed query). */
    async get(userId: number, rawArticleId: string, rawAnchor: string): Promise<SectionRecord> {
      return (await api.getTagged(userId, rawArticleId, rawAnchor)).section;
    },

    /** One section and its ETag. */
    async getTagged(userId: number, rawArticleId: string, rawAnchor: string, options: { as?: 'markdown' } = {}): Promise<{ section: SectionRecord; etag: string }> {
      const { row, anchor } = await foundByAnchor(sections.byAnchor, {
        userId,
        rawArticleId,
        rawAnchor,
        scope: sectionScope(articleUuid(rawArticleId)),
      });
      const section = sectionRecord(row, anchor);
      // The same revision either way, so the same ETag: If-Match from this read applies to a write.
      if (options.as === 'markdown' && section.source === 'html') section.markdown = await getService(strapi, 'workers').sectionMarkdown(section.html);
      return { section, etag: sectionTag(row.uuid, Number(row.rev)) };
    },

    /** Inserts a Markdown body (one section per top-level heading) after, before or at the end. */
    async add(userId: number, rawArticleId: string, markdown: string, placement: Placement, write: SectionWrite) {
      const outcome = await one(userId, rawArticleId, { op: 'insert', markdown, after: placement.after, before: placement.before }, write);
      return { data: { added: outcome.results[0].added!, outline: outcome.outline.entries() }, etag: outlineEtag(outcome), outcome };
    },

    /**
     * Replaces a section by Markdown (may become several sections, which take its place; the
     * first keeps its id) or by canvas HTML (one section, HTML canonical).
     */
    async replace(userId: number, rawArticleId: string, rawAnchor: string, input: { markdown: string } | { html: string }, write: SectionWrite) {
      const outcome = await one(userId, rawArticleId, { op: 'replace', section: rawAnchor, ...input, ifMatch: write.ifMatch }, write);
      const ids = outcome.produced[0];
      const only = ids.length === 1 ? outcome.outline.find(ids[0]) : undefined;
      return {
        data: { updated: outcome.results[0].updated!, outline: outcome.outline.entries() },
        etag: only ? sectionTag(only.uuid, only.rev) : outlineEtag(outcome),
        outcome,
      };
    },

    /** Moves a section after or before another one; writes only the moved row. */
    async move(userId: number, rawArticleId: string, rawAnchor: string, placement: Placement, write: SectionWrite) {
      const outcome = await one(userId, rawArticleId, { op: 'move', section: rawAnchor, after: placement.after, before: placement.before, ifMatch: write.ifMatch } as EditOp, write);
      return { data: { outline: outcome.outline.entries() }, etag: outlineEtag(outcome), outcome };
    },

    /** Deletes a section (to the trash); the last one is replaced by an empty section. */
    async remove(userId: number, rawArticleId: string, rawAnchor: string, write: SectionWrite) {
      const outcome = await one(userId, rawArticleId, { op: 'delete', section: rawAnchor, ifMatch: write.ifMatch }, write);
      return { data: { outline: outcome.outline.entries() }, etag: outlineEtag(outcome), outcome };
    },
  };
  return api;
};
