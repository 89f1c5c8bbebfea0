import type { Core } from '@strapi/strapi';
import { PUBLIC_PAGE_CSP, renderNotFoundPage, renderServerErrorPage } from '../pages/public-page';
import { getService } from '../services/get-service';

/** Slugs are lowercase ASCII letters, digits and dashes (domain/slug.ts); anything else is missing. */
const SLUG = /^[a-z0-9-]{1,200}$/;

/**
 * The public copies of published articles, at the root like the CLI login page: GET
 * /p/{slug} (the HTML page) and /p/{slug}.md (the Markdown) (routes/pages.ts). No credential;
 * not our JSON API, so a missing copy is a small HTML page (or plain text for .md) with status
 * 404, not an envelope.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const publications = () => getService(strapi, 'publications');

  function headers(ctx) {
    ctx.set('Content-Security-Policy', PUBLIC_PAGE_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    // Caches may keep a copy but must ask again each time, so taking a copy down takes effect at once.
    ctx.set('Cache-Control', 'no-cache');
  }

  /** A page (or plain text, for the Markdown address) that is not the article, never cached. */
  function notice(ctx, status: number, markdown: boolean, text: string, html: string) {
    ctx.status = status;
    ctx.set('Cache-Control', 'no-store');
    ctx.type = markdown ? 'text/plain; charset=utf-8' : 'text/html; charset=utf-8';
    ctx.body = markdown ? text : html;
  }

  async function show(ctx) {
    const name = String(ctx.params.name ?? '');
    const markdown = name.endsWith('.md');
    const slug = markdown ? name.slice(0, -3) : name;
    headers(ctx);
    let found: { body: string; publishedAt: string } | null;
    try {
      found = SLUG.test(slug) ? await publications().findPublic(slug, markdown ? 'markdown' : 'html') : null;
    } catch (error) {
      strapi.log.error(`GET ${ctx.path} failed: ${(error as Error)?.stack ?? error}`);
      notice(ctx, 500, markdown, 'Something went wrong on our side. Try again in a moment.\n', renderServerErrorPage());
      return;
    }
    if (!found) {
      notice(ctx, 404, markdown, 'Not found: nothing is published at this address.\n', renderNotFoundPage());
      return;
    }
    ctx.status = 200;
    ctx.type = markdown ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8';
    ctx.set('Last-Modified', new Date(found.publishedAt).toUTCString());
    ctx.etag = `W/"${slug}-${Date.parse(found.publishedAt).toString(36)}${markdown ? '-md' : ''}"`;
    ctx.body = found.body;
    if (ctx.fresh) {
      ctx.status = 304;
      ctx.body = null;
    }
  }

  return { show };
};
