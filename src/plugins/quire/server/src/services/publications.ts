import type { Core } from '@strapi/strapi';
import { publicUrl } from '#kernel/config';
import type { Knex } from 'knex';
import { assemblePublication, type PublicationContent, type PublishedSection } from '../domain/publication';
import { slugFromTitle, uniqueSlug } from '../domain/slug';
import { articleRecord, type ArticleRecord } from './articles';
import { isUniqueViolation } from '#kernel/db';
import { articleRepository } from '../repositories/articles';
import { publicationRepository } from '../repositories/publications';
import { articleUuid, lockArticle } from './article-lookup';
import type { EventActor } from '../domain/article-events';
import { getService } from './get-service';

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

/**
 * A publication is built from sections read without a lock, then written only if the article's
 * sections did not change meanwhile (its outline revision); otherwise it is built again, and
 * after this many builds, once more while holding the article's lock.
 */
const OPTIMISTIC_BUILDS = 3;

/** A publication's content and the revision of the sections it was built from. */
interface Prepared {
  outlineRev: number;
  content: PublicationContent;
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
  const publications = publicationRepository(strapi);
  const articleRows = articleRepository(strapi);
  const articles = () => getService(strapi, 'articles');
  const sections = () => getService(strapi, 'sections');
  const events = () => getService(strapi, 'events');
  /** Who an article event names when a caller passes no actor. */
  const someone: EventActor = { kind: 'human', name: '' };

  async function chooseSlug(trx: Knex, title: string): Promise<string> {
    const base = slugFromTitle(title);
    return uniqueSlug(base, new Set(await publications.in(trx).slugsLike(base)));
  }

  /** Builds the content from the sections as they are now, without holding any lock (the slow part). */
  async function prepare(userId: number, rawId: string): Promise<Prepared> {
    const row = await articles().findRow(userId, rawId);
    const list = await sections().listSections(row.id);
    return { outlineRev: row.outlineRev, content: await build(list) };
  }

  const build = (list: PublishedSection[]): Promise<PublicationContent> =>
    getService(strapi, 'workers').publicationContent({ sections: list, publicUrl: publicUrl(strapi) });

  /**
   * Writes the publication under the article's write lock, from `prepared` when the sections
   * are still those it was built from (null when they changed: prepare again), or built now,
   * under the lock, when nothing was prepared.
   */
  async function publishOnce(userId: number, rawId: string, prepared: Prepared | undefined, actor: EventActor): Promise<PublishResult | null> {
    return (await strapi.db.transaction(async ({ trx }) => {
      const k = trx as unknown as Knex;
      // The article's write lock: no section write lands between the check and the write.
      const { id, outlineRev } = await lockArticle(strapi, k, userId, rawId, { outline: false });
      if (prepared && prepared.outlineRev !== outlineRev) return null;
      const content = prepared?.content ?? (await build(await sections().listSections(id)));
      const row = await articles().findRow(userId, rawId);
      const existing = await publications.in(k).ofArticle(id);
      const slug: string = existing?.slug ?? (await chooseSlug(k, row.title));
      const now = new Date();
      const copy = assemblePublication(content, { title: row.title, slug, publicUrl: publicUrl(strapi), publishedAt: now.toISOString() });
      const document = { title: row.title, html: copy.html, markdown: copy.markdown, lastPublishedAt: now, outlineRev };
      if (existing) await publications.in(k).update(existing.id, document);
      else await publications.create(id, userId, slug, document);
      await articleRows.in(k).setStatus(id, { status: 'published', at: now });
      await events().record({ articleId: articleUuid(rawId), ownerId: userId }, actor, [{ type: 'article.published' }]);
      const outline = await sections().outlineOfRow(id, outlineRev);
      const article = articleRecord({ ...row, status: 'published', publishedAt: now.toISOString(), publicSlug: slug }, { words: outline.words, sections: outline.size }, publicUrl(strapi));
      return { article, url: copy.url, markdownUrl: copy.markdownUrl };
    })) as PublishResult | null;
  }

  return {
    /** Publishes (or republishes) an owned article: a new snapshot under its lasting slug. */
    async publish(userId: number, rawId: string, actor: EventActor = someone): Promise<PublishResult> {
      let prepared: Prepared | undefined;
      for (let builds = 0, slugAttempts = 1; ; ) {
        if (!prepared && builds < OPTIMISTIC_BUILDS) {
          prepared = await prepare(userId, rawId);
          builds += 1;
        }
        try {
          const result = await publishOnce(userId, rawId, prepared, actor);
          if (result) return result;
          prepared = undefined; // the sections changed while it was built
        } catch (error) {
          // Another article took the same slug between our read and our insert: choose again
          // (the content does not depend on the slug).
          if (!isUniqueViolation(error) || slugAttempts >= SLUG_ATTEMPTS) throw error;
          slugAttempts += 1;
        }
      }
    },

    /** Takes the public copies down and makes the article a draft again (idempotent). */
    async unpublish(userId: number, rawId: string, actor: EventActor = someone): Promise<{ article: ArticleRecord }> {
      return (await strapi.db.transaction(async ({ trx }) => {
        const k = trx as unknown as Knex;
        const { id, outlineRev } = await lockArticle(strapi, k, userId, rawId, { outline: false });
        await publications.in(k).takeDown(id);
        await articleRows.in(k).setStatus(id, { status: 'draft' });
        await events().record({ articleId: articleUuid(rawId), ownerId: userId }, actor, [{ type: 'article.unpublished' }]);
        const row = await articles().findRow(userId, rawId);
        const outline = await sections().outlineOfRow(id, outlineRev);
        return { article: articleRecord(row, { words: outline.words, sections: outline.size }, publicUrl(strapi)) };
      })) as { article: ArticleRecord };
    },

    /**
     * The public page an article would have if it were published now (the same template, its
     * lasting slug or the one its title would take), marked noindex: for editors, never stored.
     */
    async preview(userId: number, rawId: string): Promise<{ html: string; url: string }> {
      const row = await articles().findRow(userId, rawId);
      const content = await build(await sections().listSections(row.id));
      const existing = await publications.ofArticle(row.id);
      const copy = assemblePublication(content, {
        title: row.title,
        slug: existing?.slug ?? slugFromTitle(row.title),
        publicUrl: publicUrl(strapi),
        publishedAt: new Date().toISOString(),
        noindex: true,
      });
      return { html: copy.html, url: copy.url };
    },

    /** The public document of a live publication (`html` or `markdown`), or null. Takes no credential. */
    async findPublic(slug: string, format: 'html' | 'markdown'): Promise<PublicDocument | null> {
      return (await publications.findLive(slug, format)) ?? null;
    },
  };
};
