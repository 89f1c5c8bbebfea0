import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';

export interface ReadablePage {
  title: string;
  /** The main content only: navigation, footers, scripts and asides dropped. */
  html: string;
  /** `<link rel=canonical>`, else `og:url`, else the address the page was fetched from. */
  canonicalUrl: string;
}

const httpUrl = (value: string | null | undefined, base: string): string | undefined => {
  if (!value) return undefined;
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Extracts a page's article with Mozilla's Readability. jsdom here runs no script and loads no
 * resource (its defaults), so parsing a hostile page makes no request of its own.
 */
export function extractReadable(html: string, pageUrl: string): ReadablePage {
  const dom = new JSDOM(html, { url: pageUrl, virtualConsole: new VirtualConsole() });
  try {
    const document = dom.window.document;
    const canonicalUrl =
      httpUrl(document.querySelector('link[rel~="canonical" i]')?.getAttribute('href'), pageUrl) ??
      httpUrl(document.querySelector('meta[property="og:url" i]')?.getAttribute('content'), pageUrl) ??
      pageUrl;
    const fallbackTitle = document.title?.trim() ?? '';
    // Classes are kept for the sanitiser to filter: it keeps only code's language-* (fenced code languages).
    const article = new Readability(document, { keepClasses: true }).parse();
    const content = article?.content ?? document.body?.innerHTML ?? '';
    return { title: (article?.title || fallbackTitle).trim(), html: content, canonicalUrl };
  } finally {
    dom.window.close();
  }
}
