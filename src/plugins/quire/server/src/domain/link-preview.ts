import createMetascraper from 'metascraper';
import metascraperDescription from 'metascraper-description';
import metascraperImage from 'metascraper-image';
import metascraperTitle from 'metascraper-title';

/**
 * Link-preview metadata from a page that has already been fetched (through safeFetch).
 * metascraper only parses the HTML it is given: no rule here fetches anything (no favicon,
 * oEmbed, screenshot or headless-browser rules, which would bypass the fetch guard).
 */

/**
 * A link's preview card. The domain owns the shape; schemas/records.ts describes it for the
 * wire and checks at compile time that both agree.
 */
export interface LinkPreview {
  /** The final URL, after redirects. */
  url: string;
  /** Its host name, without port. */
  host: string;
  title: string;
  description: string;
  /** An absolute URL, or "" when the page has none. */
  image: string;
}

const TITLE_MAX = 300;
const DESCRIPTION_MAX = 1000;
const URL_MAX = 2048;

// Rules: OpenGraph, Twitter cards, JSON-LD, <title>, the first meta description, the first <img>...
const metascraper = createMetascraper([metascraperTitle(), metascraperDescription(), metascraperImage()]);

function clean(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  const text = value.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** An absolute http(s) URL (resolved against the page), or "" for anything else (javascript:, data:...). */
function absoluteHttpUrl(value: unknown, base: string): string {
  if (typeof value !== 'string' || !value.trim()) return '';
  try {
    const url = new URL(value.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
    const text = url.toString();
    return text.length > URL_MAX ? '' : text;
  } catch {
    return '';
  }
}

export async function extractLinkPreview(finalUrl: string, html: string): Promise<LinkPreview> {
  const url = new URL(finalUrl);
  const meta = await metascraper({ url: finalUrl, html, validateUrl: false });
  return {
    url: url.toString(),
    host: url.hostname,
    title: clean(meta.title, TITLE_MAX),
    description: clean(meta.description, DESCRIPTION_MAX),
    image: absoluteHttpUrl(meta.image, finalUrl),
  };
}
