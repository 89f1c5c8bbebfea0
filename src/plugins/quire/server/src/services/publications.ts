import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { buildPublication } from '../domain/publication';
import { slugFromTitle, uniqueSlug } from '../domain/slug';
import { articleRecord, type ArticleRecord } from './articles';
import { iso, lockArticle, tableName, TABLE, UID } from './store';

export interface PublishResult {
  article: ArticleRecord;
  url: string;
  markdownUrl: string;
}

export interface PublicDocument {
  body: string;
  publishedAt: string;
}

/**
 * Slug collisions between concurrent first publications of same-titled articles are retried:
 * each round at least one of them wins, so n racers need at most n attempts.
 */
const SLUG_ATTEMPTS = 10;

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/i.test(e?.message ?? '');
}

/**
 * Publishing: a snapshot of the article as it is at that moment, stored in its publication
 * row (`quire_publications`, one per article) and served at /p/{slug} and /p/{slug}.md.
 *
 * The slug is chosen from the title at the first publication and kept by the row for as long
 * as the article exists: republishing (even after a rename) and unpublishing keep it, so
 * links stay valid. Unpublishing empties the row's documents (the public copies answer 404)
 * and keeps the slug; deleting the article deletes the row and frees the slug.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const publications = () => tableName(strapi, TABLE.publications);
  const articles = () => strapi.plugin('quire').service('articles');
  const sections = () => strapi.plugin('quire').service('sections');
  const publicUrl = () => String(strapi.config.get('server.url')).replace(/\/+$/, '');

  async function chooseSlug(trx: Knex, title: string): Promise<string> {
    const base = slugFromTitle(title);
    // Slugs are [a-z0-9-] only, so "base-%" has no wildcard in it but the one we mean.
    const rows = await trx(publications()).where('slug', base).orWhere('slug', 'like', `${base}-%`).select('slug');
    return uniqueSlug(base, new Set(rows.map((row) => row.slug)));
  }

  async function publishOnce(userId: number, rawId: string): Promise<PublishResult> {
    return (await strapi.db.transaction(async ({ trx }) => {
      const k = trx as unknown as Knex;
      // The article's write lock: no section write lands halfway through the snapshot.
      const { id } = await lockArticle(strapi, k, userId, rawId, { outline: false });
      const row = await articles().findRow(userId, rawId);
      const list = await sections().listSections(id);
      const existing = await k(publications()).where({ article_id: id }).first(['id', 'slug']);
      const slug: string = existing?.slug ?? (await chooseSlug(k, row.title));
      const now = new Date();
      const copy = buildPublication({ title: row.title, slug, publicUrl: publicUrl(), publishedAt: now.toISOString(), sections: list });
      const document = { title: row.title, html: copy.html, markdown: copy.markdown, lastPublishedAt: now };
      if (existing) {
        await k(publications())
          .where({ id: existing.id })
          .update({ title: document.title, html: document.html, markdown: document.markdown, last_published_at: now, updated_at: now });
      } else {
        await strapi.db.query(UID.publication).create({ data: { articleId: id, userId, slug, ...document }, select: ['id'] });
      }
      await k(tableName(strapi, TABLE.articles)).where({ id }).update({ status: 'published', last_published_at: now });
      const totals = { words: list.reduce((sum, s) => sum + s.words, 0), sections: list.length };
      const article = articleRecord({ ...row, status: 'published', publishedAt: now.toISOString() }, totals);
      return { article, url: copy.url, markdownUrl: copy.markdownUrl };
    })) as PublishResult;
  }

  return {
    /** Publishes (or republishes) an owned article: a new snapshot under its lasting slug. */
    async publish(userId: number, rawId: string): Promise<PublishResult> {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await publishOnce(userId, rawId);
        } catch (error) {
          // Another article took the same slug between our read and our insert: choose again.
          if (!isUniqueViolation(error) || attempt >= SLUG_ATTEMPTS) throw error;
        }
      }
    },

    /** Takes the public copies down and makes the article a draft again (idempotent). */
    async unpublish(userId: number, rawId: string): Promise<{ article: ArticleRecord }> {
      return (await strapi.db.transaction(async ({ trx }) => {
        const k = trx as unknown as Knex;
        const { id, outlineRev } = await lockArticle(strapi, k, userId, rawId, { outline: false });
        await k(publications()).where({ article_id: id }).update({ html: null, markdown: null, updated_at: new Date() });
        await k(tableName(strapi, TABLE.articles)).where({ id }).update({ status: 'draft' });
        const row = await articles().findRow(userId, rawId);
        const outline = await sections().outlineOfRow(id, outlineRev);
        return { article: articleRecord(row, { words: outline.words, sections: outline.size }) };
      })) as { article: ArticleRecord };
    },

    /** The public document of a live publication (`html` or `markdown`), or null. Takes no credential. */
    async findPublic(slug: string, format: 'html' | 'markdown'): Promise<PublicDocument | null> {
      const row = await (strapi.db.connection as unknown as Knex)(publications())
        .where({ slug })
        .whereNotNull(format)
        .first([format, 'last_published_at']);
      if (!row) return null;
      return { body: row[format], publishedAt: iso(row.last_published_at)! };
    },
  };
};
