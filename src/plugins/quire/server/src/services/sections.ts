import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { anchorOf, newId, type AnchorScope } from '../domain/anchors';
import { invalidArgument } from '../domain/errors';
import { canvasSection, emptySection, splitMarkdown, type SectionContent } from '../domain/markdown';
import { ranksBetween, slotBounds } from '../domain/ordering';
import { Outline, type OutlineEntry, type OutlineItem } from '../domain/outline';
import { articleNotFound, articleUuid, findByAnchor, knexOf, lockArticle, tableName, TABLE, UID } from './store';

const SECTION_COLUMNS = ['uuid', 'level', 'title', 'words', 'source', 'markdown', 'html'];

export interface SectionRecord {
  id: string;
  anchor: string;
  level: number;
  title: string;
  words: number;
  source: string;
  markdown: string | null;
  html: string;
}

const ITEM_COLUMNS = ['uuid', 'rank', 'level', 'title', 'words', 'source'];

export const sectionScope = (articleId: string): AnchorScope => ({
  item: 'section',
  listRoute: `GET /api/articles/${articleId}/outline`,
});

/** Where new or moved sections go: after or before an anchor, or (neither) at the end. */
export interface Placement {
  after?: string;
  before?: string;
}

const BLANK_MARKDOWN = () => invalidArgument('markdown must not be empty.', 'Pass the section body as a non-empty Markdown string in "markdown".');

/** The empty section an article keeps when it has no content. */
const looksEmpty = (item: OutlineItem) => item.level === 0 && item.title === '' && item.words === 0 && item.source === 'markdown';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const sections = (alias?: string) => tableName(strapi, TABLE.sections, alias);
  const cache = () => strapi.plugin('quire').service('outlines');

  async function loadOutline(k: Knex, articleRowId: number): Promise<Outline> {
    return Outline.of(await k(sections()).where({ article_id: articleRowId }).select(ITEM_COLUMNS));
  }

  /**
   * The outline of an article whose lock this transaction holds, as it was before this write
   * (revision `rev - 1`): from the cache when it has that revision, else from the database.
   */
  async function outlineBefore(trx: Knex, articleRowId: number, rev: number): Promise<Outline> {
    return cache().get(articleRowId, rev - 1) ?? (await loadOutline(trx, articleRowId));
  }

  /** Keeps the new outline for the next request, once (and only if) the write commits. */
  function keepAfterCommit(onCommit: (cb: () => void) => void, articleRowId: number, rev: number, outline: Outline) {
    onCommit(() => cache().set(articleRowId, rev, outline));
  }

  /** Inserts sections with the given ranks (one INSERT per batch); returns their outline items. */
  async function insert(articleRowId: number, contents: SectionContent[], ranks: string[]): Promise<OutlineItem[]> {
    const data = contents.map((c, i) => ({
      uuid: newId(),
      articleId: articleRowId,
      rank: ranks[i],
      level: c.level,
      title: c.title,
      words: c.words,
      source: c.source,
      markdown: c.markdown,
      html: c.html,
      rev: 1,
    }));
    if (data.length) await strapi.db.query(UID.section).createMany({ data });
    return data.map((d) => ({ uuid: d.uuid, rank: d.rank, level: d.level, title: d.title, words: d.words, source: d.source }));
  }

  /** A section write: lock, outline before, the change, outline after (cached on commit). */
  function write<T>(userId: number, rawArticleId: string, change: (trx: Knex, articleRowId: number, before: Outline) => Promise<{ after: Outline; result: T }>) {
    return strapi.db.transaction(async ({ trx, onCommit }) => {
      const k = trx as unknown as Knex;
      const { id, outlineRev } = await lockArticle(strapi, k, userId, rawArticleId, { outline: true });
      const before = await outlineBefore(k, id, outlineRev);
      const { after, result } = await change(k, id, before);
      keepAfterCommit(onCommit, id, outlineRev, after);
      return result;
    }) as Promise<T>;
  }

  const api = {
    /**
     * The outline of an owned article: the article row (id and outline revision), then the
     * cached outline of that revision, or the sections in one query.
     */
    async outlineOf(userId: number, rawArticleId: string): Promise<Outline> {
      const uuid = articleUuid(rawArticleId);
      const k = await knexOf(strapi);
      const article = await k(tableName(strapi, TABLE.articles)).where({ uuid, user_id: userId }).first(['id', 'outline_rev']);
      if (!article) throw articleNotFound(rawArticleId);
      return api.outlineOfRow(Number(article.id), Number(article.outline_rev));
    },

    /** The outline of an article row at revision `rev` (the caller read both from the row). */
    async outlineOfRow(articleRowId: number, rev: number): Promise<Outline> {
      const cached = cache().get(articleRowId, rev);
      if (cached) return cached;
      // Rows and revision from one statement, so the cached pair is consistent.
      const k = await knexOf(strapi);
      const rows = await k(sections('s'))
        .join(tableName(strapi, TABLE.articles, 'a'), 'a.id', 's.article_id')
        .where('s.article_id', articleRowId)
        .select([...ITEM_COLUMNS.map((c) => `s.${c}`), 'a.outline_rev']);
      const outline = Outline.of(rows);
      if (rows.length) cache().set(articleRowId, Number(rows[0].outline_rev), outline);
      return outline;
    },

    async outline(userId: number, rawArticleId: string): Promise<OutlineEntry[]> {
      return (await api.outlineOf(userId, rawArticleId)).entries();
    },

    /** Sections of an article row, in order, with their full content (publish, export). */
    async listSections(articleRowId: number): Promise<SectionRecord[]> {
      const k = await knexOf(strapi);
      const rows = await k(sections())
        .where({ article_id: articleRowId })
        .select([...ITEM_COLUMNS, 'markdown', 'html']);
      const outline = Outline.of(rows);
      const byId = new Map(rows.map((row) => [row.uuid, row]));
      return outline.items.map((item) => toRecord(byId.get(item.uuid), outline.anchorOf(item.uuid)));
    },

    /** Inserts the first sections of a new article (inside its creating transaction). */
    async insertInitial(articleRowId: number, contents: SectionContent[]): Promise<Outline> {
      const all = contents.length ? contents : [emptySection()];
      return Outline.of(await insert(articleRowId, all, ranksBetween(null, null, all.length)));
    },

    /** One section by anchor (see findByAnchor: one indexed query). */
    async get(userId: number, rawArticleId: string, rawAnchor: string): Promise<SectionRecord> {
      const { row, anchor } = await findByAnchor(strapi, TABLE.sections, SECTION_COLUMNS, {
        userId,
        rawArticleId,
        rawAnchor,
        scope: sectionScope(articleUuid(rawArticleId)),
      });
      return toRecord(row, anchor);
    },

    /** Inserts a Markdown body (one section per top-level heading) after, before or at the end. */
    async add(userId: number, rawArticleId: string, markdown: string, placement: Placement) {
      const contents = splitMarkdown(markdown);
      if (!contents.length) throw BLANK_MARKDOWN();
      const scope = sectionScope(articleUuid(rawArticleId));
      return write(userId, rawArticleId, async (trx, articleRowId, before) => {
        const afterItem = placement.after !== undefined ? before.resolve(placement.after, scope) : undefined;
        const beforeItem = placement.before !== undefined ? before.resolve(placement.before, scope) : undefined;
        let base = before;
        let { lower, upper } = slotBounds(before.items as OutlineItem[], {
          afterIndex: afterItem && before.indexOf(afterItem.uuid),
          beforeIndex: beforeItem && before.indexOf(beforeItem.uuid),
        });
        // Content takes the place of the empty section of an article that had none.
        const only = before.size === 1 ? before.items[0] : undefined;
        if (only && looksEmpty(only)) {
          const stored = await trx(sections()).where({ article_id: articleRowId, uuid: only.uuid }).first('markdown');
          if (stored?.markdown === '') {
            await trx(sections()).where({ article_id: articleRowId, uuid: only.uuid }).delete();
            base = before.with({ remove: [only.uuid] });
            lower = null;
            upper = null;
          }
        }
        const added = await insert(articleRowId, contents, ranksBetween(lower, upper, contents.length));
        const after = base.with({ upsert: added });
        return { after, result: { added: added.map((item) => after.entry(item)), outline: after.entries() } };
      });
    },

    /**
     * Replaces a section by Markdown (may become several sections, which take its place; the
     * first keeps its id) or by canvas HTML (one section, HTML canonical).
     */
    async replace(userId: number, rawArticleId: string, rawAnchor: string, input: { markdown: string } | { html: string }) {
      const contents = 'markdown' in input ? splitMarkdown(input.markdown) : [canvasSection(input.html)];
      if (!contents.length) throw BLANK_MARKDOWN();
      const scope = sectionScope(articleUuid(rawArticleId));
      return write(userId, rawArticleId, async (trx, articleRowId, before) => {
        const old = before.resolve(rawAnchor, scope);
        const [first, ...rest] = contents;
        await trx(sections())
          .where({ article_id: articleRowId, uuid: old.uuid })
          .update({
            level: first.level,
            title: first.title,
            words: first.words,
            source: first.source,
            markdown: first.markdown,
            html: first.html,
            rev: trx.raw('?? + 1', ['rev']),
            updated_at: new Date(),
          });
        const replaced: OutlineItem = { uuid: old.uuid, rank: old.rank, level: first.level, title: first.title, words: first.words, source: first.source };
        const next = before.items[before.indexOf(old.uuid) + 1]?.rank ?? null;
        const added = rest.length ? await insert(articleRowId, rest, ranksBetween(old.rank, next, rest.length)) : [];
        const after = before.with({ upsert: [replaced, ...added] });
        return { after, result: { updated: [replaced, ...added].map((item) => after.entry(item)), outline: after.entries() } };
      });
    },

    /** Moves a section after or before another one; writes only the moved row. */
    async move(userId: number, rawArticleId: string, rawAnchor: string, placement: Placement) {
      const scope = sectionScope(articleUuid(rawArticleId));
      return write(userId, rawArticleId, async (trx, articleRowId, before) => {
        const moving = before.resolve(rawAnchor, scope);
        const field = placement.after !== undefined ? 'after' : 'before';
        const target = before.resolve(placement[field]!, scope);
        if (target.uuid === moving.uuid) {
          throw invalidArgument(`${field} names the section being moved.`, `Pass as "${field}" the anchor of another section.`);
        }
        const others = before.items.filter((item) => item.uuid !== moving.uuid);
        const targetIndex = others.indexOf(target);
        const { lower, upper } = slotBounds(others, field === 'after' ? { afterIndex: targetIndex } : { beforeIndex: targetIndex });
        const inPlace = (lower === null || moving.rank > lower) && (upper === null || moving.rank < upper);
        if (inPlace) return { after: before, result: { outline: before.entries() } };
        const rank = ranksBetween(lower, upper, 1)[0];
        await trx(sections())
          .where({ article_id: articleRowId, uuid: moving.uuid })
          .update({ rank, rev: trx.raw('?? + 1', ['rev']), updated_at: new Date() });
        const after = before.with({ upsert: [{ ...moving, rank }] });
        return { after, result: { outline: after.entries() } };
      });
    },

    /** Deletes a section; the last one is replaced by an empty section. */
    async remove(userId: number, rawArticleId: string, rawAnchor: string) {
      const scope = sectionScope(articleUuid(rawArticleId));
      return write(userId, rawArticleId, async (trx, articleRowId, before) => {
        const doomed = before.resolve(rawAnchor, scope);
        await trx(sections()).where({ article_id: articleRowId, uuid: doomed.uuid }).delete();
        let after = before.with({ remove: [doomed.uuid] });
        if (after.size === 0) after = after.with({ upsert: await insert(articleRowId, [emptySection()], ranksBetween(null, null, 1)) });
        return { after, result: { outline: after.entries() } };
      });
    },
  };
  return api;
};

function toRecord(row, anchor: string): SectionRecord {
  return {
    id: row.uuid,
    anchor,
    level: Number(row.level),
    title: row.title,
    words: Number(row.words),
    source: row.source,
    markdown: row.source === 'html' ? null : (row.markdown ?? ''),
    html: row.html ?? '',
  };
}
