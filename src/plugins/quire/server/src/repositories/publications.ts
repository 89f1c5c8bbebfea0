/**
 * quire_publications: one per published (or once published) article: its lasting slug and
 * public copies.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { iso, knexOf, repositoryOf, tableName } from '#kernel/db';
import { TABLE, UID } from './store';

export interface PublicationDocument {
  title: string;
  html: string;
  markdown: string;
  lastPublishedAt: Date;
  /** The outline revision it was built from ("changed since published" compares it). */
  outlineRev: number;
}

export function publicationRepository(strapi: Core.Strapi) {
  const publications = () => tableName(strapi, TABLE.publications);
  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return Object.assign(
    repositoryOf(strapi, {
      /** Slugs taken that are `base` or `base-...`. */
      async slugsLike(k: Knex, base: string): Promise<string[]> {
        // Slugs are [a-z0-9-] only, so "base-%" has no wildcard in it but the one we mean.
        const rows = await k(publications()).where('slug', base).orWhere('slug', 'like', `${base}-%`).select('slug');
        return rows.map((row) => row.slug as string);
      },

      async ofArticle(k: Knex, articleRowId: number): Promise<{ id: number; slug: string } | undefined> {
        const row = await k(publications()).where({ article_id: articleRowId }).first(['id', 'slug']);
        return row ? { id: Number(row.id), slug: row.slug } : undefined;
      },

      async update(k: Knex, id: number, document: PublicationDocument): Promise<void> {
        await k(publications())
          .where({ id })
          .update({ title: document.title, html: document.html, markdown: document.markdown, last_published_at: document.lastPublishedAt, outline_rev: document.outlineRev, updated_at: document.lastPublishedAt });
      },

      /** Empties the public copies (the slug stays). */
      async takeDown(k: Knex, articleRowId: number): Promise<void> {
        await k(publications()).where({ article_id: articleRowId }).update({ html: null, markdown: null, updated_at: new Date() });
      },
    }),
    {
      /** A first publication (joining the open transaction); a slug taken meanwhile is a unique violation. */
      async create(articleRowId: number, userId: number, slug: string, document: PublicationDocument): Promise<void> {
        await strapi.db.query(UID.publication).create({ data: { articleId: articleRowId, userId, slug, ...document }, select: ['id'] });
      },

      /** A live publication's document in one format, or undefined. */
      async findLive(slug: string, format: 'html' | 'markdown'): Promise<{ body: string; publishedAt: string } | undefined> {
        const k = await knexOf(strapi);
        const row = await k(publications()).where({ slug }).whereNotNull(format).first([format, 'last_published_at']);
        return row ? { body: row[format], publishedAt: iso(row.last_published_at)! } : undefined;
      },
    },
  );
}
