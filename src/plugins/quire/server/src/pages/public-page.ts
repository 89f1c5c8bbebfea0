import { createHash } from 'node:crypto';
import { escapeHtml } from '../domain/html-escape';

export interface PublicPage {
  title: string;
  description: string;
  canonicalUrl: string;
  markdownUrl: string;
  /** Absolute URL of the first image, for OpenGraph; "" when there is none. */
  imageUrl: string;
  publishedAt: string;
  /** Each section's sanitised HTML with absolute URLs, in order. */
  sectionsHtml: string[];
  /** A preview for editors: search engines are told not to index it. */
  noindex?: boolean;
}

/**
 * The page's one stylesheet. Section headings stay smaller than the article's title: an `h1`
 * written in a section is a heading of the article, not its title (the stored HTML is not
 * rewritten; only its look is).
 */
const STYLE = `body{margin:0;background:#fdfcfa;color:#1d1d1f;font:18px/1.65 Georgia,'Times New Roman',serif}
main{max-width:42rem;margin:0 auto;padding:3rem 1.25rem 5rem}
h1,h2,h3,h4,h5,h6{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;line-height:1.25}
header h1,main>h1{font-size:2.2rem;margin:0 0 .4rem}
section h1{font-size:1.6rem}section h2{font-size:1.35rem}section h3{font-size:1.15rem}section h4,section h5,section h6{font-size:1rem}
section h1,section h2{margin:2.2rem 0 .6rem}
.meta{color:#6e6e73;font:14px -apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin-bottom:2.5rem}
img{max-width:100%;height:auto}
pre{background:#f2f1ee;padding:1rem;overflow:auto;border-radius:6px;font-size:15px}
code{font-family:ui-monospace,Menlo,Consolas,monospace}
blockquote{margin:1.5rem 0;padding-left:1rem;border-left:3px solid #d2d2d7;color:#424245}
table{border-collapse:collapse}td,th{border:1px solid #d2d2d7;padding:.3rem .6rem}td>p,th>p{margin:0}
a{color:#0a58ca}
figure[data-type=link-card]{display:flex;gap:1rem;align-items:flex-start;margin:1.5rem 0;padding:.75rem;border:1px solid #d2d2d7;border-radius:8px;background:#fff;font:15px/1.45 -apple-system,'Segoe UI',Helvetica,Arial,sans-serif}
figure[data-type=link-card] img{width:7rem;height:5rem;object-fit:cover;border-radius:4px;flex:none}
figure[data-type=link-card] figcaption{display:flex;flex-direction:column;gap:.2rem;min-width:0}
figure[data-type=link-card] a{font-weight:600;text-decoration:none}
figure[data-type=link-card] small{color:#6e6e73}`;

/** The only inline style of the page, allowed by its hash so the CSP needs no 'unsafe-inline'. */
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** Strict policy for the public copy: no script at all, images from anywhere, our one stylesheet. */
export const PUBLIC_PAGE_CSP = [
  "default-src 'none'",
  'img-src https: http: data:',
  `style-src ${STYLE_HASH}`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** A complete HTML document for a published article: title, canonical and OpenGraph tags, sections in order. */
export function renderPublicPage(page: PublicPage): string {
  const e = escapeHtml;
  const meta = [
    page.noindex ? '<meta name="robots" content="noindex, nofollow">' : '',
    `<meta name="description" content="${e(page.description)}">`,
    `<link rel="canonical" href="${e(page.canonicalUrl)}">`,
    `<link rel="alternate" type="text/markdown" href="${e(page.markdownUrl)}">`,
    `<meta property="og:type" content="article">`,
    `<meta property="og:title" content="${e(page.title)}">`,
    `<meta property="og:description" content="${e(page.description)}">`,
    `<meta property="og:url" content="${e(page.canonicalUrl)}">`,
    page.imageUrl ? `<meta property="og:image" content="${e(page.imageUrl)}">` : '',
    `<meta property="article:published_time" content="${e(page.publishedAt)}">`,
    `<meta name="twitter:card" content="${page.imageUrl ? 'summary_large_image' : 'summary'}">`,
  ].filter(Boolean);
  const date = page.publishedAt.slice(0, 10);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(page.title)}</title>
${meta.join('\n')}
<style>${STYLE}</style>
</head>
<body>
<main>
<article>
<header><h1>${e(page.title)}</h1><p class="meta">${page.noindex ? 'Preview, not published' : `Published <time datetime="${e(page.publishedAt)}">${e(date)}</time>`}</p></header>
${page.sectionsHtml.map((html) => `<section>\n${html}\n</section>`).join('\n')}
</article>
</main>
</body>
</html>
`;
}

/** A short page in the public pages' style: a title and one sentence (texts are ours, not escaped). */
function renderNotice(title: string, message: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${title}</h1>
<p>${message}</p>
</main>
</body>
</html>
`;
}

/** The page of a public address with nothing published at it (never published, taken down, deleted). */
export function renderNotFoundPage(): string {
  return renderNotice('Not found', 'Nothing is published at this address. It may have been taken down, or the link may be mistyped.');
}

/** The page shown when reading a public copy failed on our side. */
export function renderServerErrorPage(): string {
  return renderNotice('Something went wrong', 'This page could not be loaded because of a problem on our side. Try again in a moment.');
}
