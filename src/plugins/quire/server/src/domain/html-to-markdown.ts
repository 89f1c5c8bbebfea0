import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

/**
 * HTML -> GitHub-flavoured Markdown, keeping headings (ATX), lists, links, images, fenced code
 * with its language, tables, emphasis and strikethrough. Callers sanitise the HTML first:
 * this only converts.
 */
const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  fence: '```',
  bulletListMarker: '-',
  emDelimiter: '*',
  strongDelimiter: '**',
  linkStyle: 'inlined',
});
turndown.use(gfm);

// Text that reads "<b>" or "&copy;" must stay text: Turndown escapes Markdown syntax but not
// "<" (raw HTML in Markdown) or character references, which Markdown would turn into markup.
const escapeMarkdown = turndown.escape.bind(turndown);
turndown.escape = (text: string) =>
  escapeMarkdown(text)
    .replace(/</g, '\\<')
    .replace(/&(?=#?[a-z0-9]+;)/gi, '\\&');
turndown.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'form', 'button', 'input', 'select', 'textarea'] as any);

// The gfm plugin's table rule reads the first row of every table: a table without rows would
// crash it. Such a table keeps only its text.
turndown.addRule('tableWithoutRows', {
  filter: (node) => node.nodeName === 'TABLE' && !(node as any).rows?.length,
  replacement: (content) => `\n\n${content}\n\n`,
});

// A caption is a paragraph of its own, not glued to the image it follows.
turndown.addRule('figcaption', {
  filter: 'figcaption',
  replacement: (content) => `\n\n${content.trim()}\n\n`,
});

// Turndown pads list markers to four columns ("-   item"); one space reads better and parses the same.
turndown.addRule('compactListItem', {
  filter: 'li',
  replacement(content, node, options) {
    const parent = node.parentNode as any;
    let marker = `${options.bulletListMarker} `;
    if (parent && parent.nodeName === 'OL') {
      const start = Number(parent.getAttribute('start') || 1);
      marker = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
    }
    const body = content.replace(/^\n+/, '').replace(/\n+$/, '\n').replace(/\n/gm, '\n' + ' '.repeat(marker.length));
    return marker + body + (node.nextSibling && !/\n$/.test(body) ? '\n' : '');
  },
});

// The canvas's tables (TipTap) hold a paragraph in every cell, and a GFM table row is one line:
// the paragraphs of a cell are joined by <br> (which GFM keeps inside a cell), not blank lines,
// and a "|" in the text is escaped so it does not end the cell.
turndown.addRule('paragraphInTableCell', {
  filter: (node) => node.nodeName === 'P' && /^T[HD]$/.test(node.parentNode?.nodeName ?? ''),
  replacement: (content, node) => content.trim().replace(/\n+/g, ' ').replace(/(?<!\\)\|/g, '\\|') + (node.nextSibling ? '<br>' : ''),
});

export function htmlToMarkdown(html: string): string {
  return turndown
    .turndown(html)
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
