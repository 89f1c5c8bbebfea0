import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import {
  ambiguousAnchor,
  anchorOf,
  newId,
  normalizeAnchor,
  prefixUpperBound,
  resolveAnchor,
  unknownAnchor,
  type AnchorScope,
} from '../domain/anchors';
import { invalidArgument } from '../domain/errors';
import { canvasSection, emptySection, splitMarkdown, type SectionContent } from '../domain/markdown';
import { ranksBetween, slotBounds } from '../domain/ordering';
import { outlineEntries, outlineEntry, outlineView, type OutlineEntry, type SectionSummary } from '../domain/outline';
import { articleRowId, articleUuid, inTransaction, knexOf, lockArticle, tableName, TABLE, UID } from './store';

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

/** A loaded outline row: the summary plus the row id. */
export interface SectionRow extends SectionSummary {
  id: number;
}

const SUMMARY_COLUMNS = ['id', 'uuid', 'rank', 'level', 'title', 'words', 'source'];

export const sectionScope = (articleId: string): AnchorScope => ({
  item: 'section',
  listRoute: `GET /api/articles/${articleId}/outline`,
});

/** Where new or moved sections go: after or before an anchor, or (neither) at the end. */
export interface Placement {
  after?: string;
  before?: string;
}

/** The empty placeholder of an article that has no content yet. */
const isPlaceholder = (row: SectionRow, markdown: string | null | undefined) =>
  row.level === 0 && row.title === '' && row.source === 'markdown' && markdown === '';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const sections = (alias?: string) => tableName(strapi, TABLE.sections, alias);

  async function loadRows(k: Knex, articleRowId: number): Promise<SectionRow[]> {
    const rows = await k(sections()).where({ article_id: articleRowId }).select(SUMMARY_COLUMNS);
    return rows.map((r) => ({ ...r, id: Number(r.id), level: Number(r.level), words: Number(r.words) }));
  }

  /** Inserts sections with the given ranks (one INSERT per batch). */
  async function insert(articleRowId: number, contents: SectionContent[], ranks: string[]): Promise<SectionRow[]> {
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
    return data.map((d) => ({ id: 0, uuid: d.uuid, rank: d.rank, level: d.level, title: d.title, words: d.words, source: d.source }));
  }

  function resolveIndex(view: ReturnType<typeof outlineView<SectionRow>>, anchor: string, articleId: string): number {
    const id = resolveAnchor(view.sortedIds, anchor, sectionScope(articleId));
    return view.ordered.findIndex((row) => row.uuid === id);
  }

  return {
    /** The outline of an owned article (one query: an article always has a section). */
    async outline(userId: number, rawArticleId: string): Promise<OutlineEntry[]> {
      const uuid = articleUuid(rawArticleId);
      const k = await knexOf(strapi);
      const rows = await k(sections('s'))
        .join(tableName(strapi, TABLE.articles, 'a'), 'a.id', 's.article_id')
        .where({ 'a.uuid': uuid, 'a.user_id': userId })
        .select(SUMMARY_COLUMNS.map((c) => `s.${c}`));
      if (!rows.length) await articleRowId(strapi, userId, rawArticleId); // 404 unless it exists
      return outlineEntries(outlineView(rows.map((r) => ({ ...r, level: Number(r.level), words: Number(r.words) }))));
    },

    /** Sections of an article row, in order, with their full content (publish, export). */
    async listSections(articleRowId: number): Promise<SectionRecord[]> {
      const k = await knexOf(strapi);
      const rows = await k(sections())
        .where({ article_id: articleRowId })
        .select(['uuid', 'rank', 'level', 'title', 'words', 'source', 'markdown', 'html']);
      const view = outlineView(rows);
      return view.ordered.map((row) => toRecord(row, view.anchors.get(row.uuid)!));
    },

    /** Summary rows of an article row (for services building on this one). */
    loadRows: async (articleRowId: number) => loadRows(await knexOf(strapi), articleRowId),

    /** Inserts the first sections of a new article (inside its creating transaction). */
    async insertInitial(articleRowId: number, contents: SectionContent[]): Promise<SectionRow[]> {
      const all = contents.length ? contents : [emptySection()];
      return insert(articleRowId, all, ranksBetween(null, null, all.length));
    },

    /**
     * One section by anchor: a single indexed range query on (article_id, uuid), joined to
     * the owner's article, with the id's sorted neighbours for its anchor.
     */
    async get(userId: number, rawArticleId: string, rawAnchor: string): Promise<SectionRecord> {
      const uuid = articleUuid(rawArticleId);
      const anchor = normalizeAnchor(rawAnchor);
      if (anchor === null) {
        await articleRowId(strapi, userId, rawArticleId);
        throw unknownAnchor(rawAnchor, sectionScope(uuid));
      }
      const k = await knexOf(strapi);
      const neighbour = (op: '<' | '>', direction: 'asc' | 'desc', as: string) =>
        k(sections('p'))
          .select('p.uuid')
          .whereRaw('?? = ??', ['p.article_id', 's.article_id'])
          .andWhere('p.uuid', op, k.ref('s.uuid'))
          .orderBy('p.uuid', direction)
          .limit(1)
          .as(as);
      const rows = await k(sections('s'))
        .join(tableName(strapi, TABLE.articles, 'a'), 'a.id', 's.article_id')
        .where({ 'a.uuid': uuid, 'a.user_id': userId })
        .andWhere('s.uuid', '>=', anchor)
        .andWhere('s.uuid', '<', prefixUpperBound(anchor))
        .orderBy('s.uuid')
        .limit(2)
        .select(
          ['s.uuid', 's.level', 's.title', 's.words', 's.source', 's.markdown', 's.html'],
          neighbour('<', 'desc', 'prev'),
          neighbour('>', 'asc', 'next'),
        );
      if (rows.length === 0) {
        await articleRowId(strapi, userId, rawArticleId);
        throw unknownAnchor(rawAnchor, sectionScope(uuid));
      }
      if (rows.length > 1) throw ambiguousAnchor(rawAnchor, sectionScope(uuid));
      const row = rows[0];
      return toRecord(row, anchorOf(row.uuid, row.prev, row.next));
    },

    /** Inserts a Markdown body (one section per top-level heading) after, before or at the end. */
    async add(userId: number, rawArticleId: string, markdown: string, placement: Placement) {
      const contents = splitMarkdown(markdown);
      if (!contents.length) throw invalidArgument('markdown must not be blank.', 'Pass the section body as a non-empty string in "markdown".');
      const uuid = articleUuid(rawArticleId);
      return inTransaction(strapi, async (trx) => {
        const articleRowId = await lockArticle(strapi, trx, userId, rawArticleId);
        let rows = await loadRows(trx, articleRowId);
        const view = outlineView(rows);
        const target =
          placement.after !== undefined
            ? { afterIndex: resolveIndex(view, placement.after, uuid) }
            : placement.before !== undefined
              ? { beforeIndex: resolveIndex(view, placement.before, uuid) }
              : {};
        let { lower, upper } = slotBounds(view.ordered, target);
        // Content replaces the placeholder of an article that had none.
        if (rows.length === 1) {
          const only = await trx(sections()).where({ id: rows[0].id }).first('markdown');
          if (isPlaceholder(rows[0], only?.markdown)) {
            await trx(sections()).where({ id: rows[0].id }).delete();
            rows = [];
            lower = null;
            upper = null;
          }
        }
        const added = await insert(articleRowId, contents, ranksBetween(lower, upper, contents.length));
        const after = outlineView([...rows, ...added]);
        return {
          added: added.map((row) => outlineEntry(row, after.anchors.get(row.uuid)!)),
          outline: outlineEntries(after),
        };
      });
    },

    /**
     * Replaces a section by Markdown (may become several sections, which take its place; the
     * first keeps its id) or by canvas HTML (one section, HTML canonical).
     */
    async replace(userId: number, rawArticleId: string, rawAnchor: string, input: { markdown: string } | { html: string }) {
      const contents = 'markdown' in input ? splitMarkdown(input.markdown) : [canvasSection(input.html)];
      if (!contents.length) throw invalidArgument('markdown must not be blank.', 'Pass the section body as a non-empty string in "markdown".');
      const uuid = articleUuid(rawArticleId);
      return inTransaction(strapi, async (trx) => {
        const articleRowId = await lockArticle(strapi, trx, userId, rawArticleId);
        const rows = await loadRows(trx, articleRowId);
        const view = outlineView(rows);
        const index = resolveIndex(view, rawAnchor, uuid);
        const old = view.ordered[index];
        const [first, ...rest] = contents;
        await trx(sections())
          .where({ id: old.id })
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
        const replaced: SectionRow = { ...old, level: first.level, title: first.title, words: first.words, source: first.source };
        const added = await insert(articleRowId, rest, rest.length ? ranksBetween(old.rank, view.ordered[index + 1]?.rank ?? null, rest.length) : []);
        const after = outlineView([...rows.filter((r) => r.id !== old.id), replaced, ...added]);
        return {
          updated: [replaced, ...added].map((row) => outlineEntry(row, after.anchors.get(row.uuid)!)),
          outline: outlineEntries(after),
        };
      });
    },

    /** Moves a section after or before another one; writes only the moved row. */
    async move(userId: number, rawArticleId: string, rawAnchor: string, placement: Placement) {
      const uuid = articleUuid(rawArticleId);
      return inTransaction(strapi, async (trx) => {
        const articleRowId = await lockArticle(strapi, trx, userId, rawArticleId);
        const rows = await loadRows(trx, articleRowId);
        const view = outlineView(rows);
        const moving = view.ordered[resolveIndex(view, rawAnchor, uuid)];
        const field = placement.after !== undefined ? 'after' : 'before';
        const target = view.ordered[resolveIndex(view, placement[field]!, uuid)];
        if (target.uuid === moving.uuid) {
          throw invalidArgument(`${field} names the section being moved.`, `Pass as "${field}" the anchor of another section.`);
        }
        const others = view.ordered.filter((row) => row.uuid !== moving.uuid);
        const targetIndex = others.indexOf(target);
        const { lower, upper } = slotBounds(others, field === 'after' ? { afterIndex: targetIndex } : { beforeIndex: targetIndex });
        const inPlace = (lower === null || moving.rank > lower) && (upper === null || moving.rank < upper);
        if (!inPlace) {
          const rank = ranksBetween(lower, upper, 1)[0];
          await trx(sections())
            .where({ id: moving.id })
            .update({ rank, rev: trx.raw('?? + 1', ['rev']), updated_at: new Date() });
          moving.rank = rank;
        }
        return { outline: outlineEntries(outlineView(rows)) };
      });
    },

    /** Deletes a section; the last one is replaced by an empty section. */
    async remove(userId: number, rawArticleId: string, rawAnchor: string) {
      const uuid = articleUuid(rawArticleId);
      return inTransaction(strapi, async (trx) => {
        const articleRowId = await lockArticle(strapi, trx, userId, rawArticleId);
        const rows = await loadRows(trx, articleRowId);
        const view = outlineView(rows);
        const doomed = view.ordered[resolveIndex(view, rawAnchor, uuid)];
        await trx(sections()).where({ id: doomed.id }).delete();
        let left = rows.filter((row) => row.id !== doomed.id);
        if (!left.length) left = await insert(articleRowId, [emptySection()], ranksBetween(null, null, 1));
        return { outline: outlineEntries(outlineView(left)) };
      });
    },
  };
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
