import type { Heading } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { parseMarkdown } from './markdown';

/**
 * The title of an imported Markdown document: a leading level-1 heading (taken out of the
 * body, since the article shows its title itself), else the first heading's text (kept in the
 * body), else null.
 */
export function takeTitle(markdown: string): { title: string | null; body: string } {
  const tree = parseMarkdown(markdown);
  const first = tree.children[0];
  if (first?.type === 'heading' && first.depth === 1 && first.position?.end.offset !== undefined) {
    const rest = markdown.slice(first.position.end.offset).replace(/^[ \t]*\r?\n(?:[ \t]*\r?\n)*/, '');
    return { title: toString(first).trim(), body: rest };
  }
  const heading = tree.children.find((node): node is Heading => node.type === 'heading');
  return { title: heading ? toString(heading).trim() || null : null, body: markdown };
}
