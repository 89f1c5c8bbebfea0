/**
 * replaceText on an html section (CONTRACT section 20): the text is matched as a reader sees it
 * (character references decoded, markup ignored) and replaced inside text nodes only, never in
 * tags or attributes. An occurrence that runs across an element boundary (`big</b> world`) is
 * not replaced and does not count; it is counted apart so that the refusal can say so. The
 * result goes through the sections' one sanitiser (canvasSection). Pure code, no Strapi.
 */
import type { Root as HastRoot, RootContent as HastContent, Text } from 'hast';
import { canvasSection, isInlineElement, parseSectionHtml, stringifyHtml, type SectionContent } from './markdown';

export interface HtmlTextCount {
  /** Occurrences inside one text node: what replaceText counts and replaces. */
  inText: number;
  /** Occurrences that run across an element boundary inside one block (not replaced, not counted). */
  crossing: number;
  /** The first crossing occurrence as it stands in the HTML, for the message (null when none). */
  crossingExample: string | null;
  /** `find` occurs in the HTML source but nowhere in its text: it is markup (a tag, an attribute). */
  markupOnly: boolean;
}

/** Non-overlapping occurrences of a literal string. */
export function occurrences(text: string, find: string): number {
  let n = 0;
  for (let at = text.indexOf(find); at !== -1; at = text.indexOf(find, at + find.length)) n += 1;
  return n;
}

/**
 * The text nodes of a tree in runs: the nodes of one run read on from each other (inline
 * markup between them); a block element's start or end begins a new run.
 */
function textRuns(tree: HastRoot): Text[][] {
  const runs: Text[][] = [[]];
  const breakRun = () => {
    if (runs[runs.length - 1].length) runs.push([]);
  };
  const walk = (node: HastRoot | HastContent) => {
    if (node.type === 'text') {
      runs[runs.length - 1].push(node);
      return;
    }
    if (node.type !== 'root' && node.type !== 'element') return;
    const block = node.type === 'element' && !isInlineElement(node.tagName);
    if (block) breakRun();
    for (const child of node.children) walk(child);
    if (block) breakRun();
  };
  walk(tree);
  return runs.filter((run) => run.length > 0);
}

function countIn(tree: HastRoot, html: string, find: string): HtmlTextCount {
  let inText = 0;
  let crossing = 0;
  let crossingExample: string | null = null;
  for (const run of textRuns(tree)) {
    for (const node of run) inText += occurrences(node.value, find);
    if (run.length < 2) continue;
    // Where each node starts in the run's text: an occurrence inside [start, end) of one node is not crossing.
    const starts: number[] = [];
    let text = '';
    for (const node of run) {
      starts.push(text.length);
      text += node.value;
    }
    let k = 0;
    for (let at = text.indexOf(find); at !== -1; at = text.indexOf(find, at + find.length)) {
      while (k + 1 < starts.length && starts[k + 1] <= at) k += 1;
      const end = k + 1 < starts.length ? starts[k + 1] : text.length;
      if (at + find.length > end) {
        crossing += 1;
        crossingExample ??= text.slice(at, at + find.length);
      }
    }
  }
  return { inText, crossing, crossingExample, markupOnly: inText === 0 && crossing === 0 && html.includes(find) };
}

/** How often `find` occurs in the text of an html section (and across element boundaries). */
export function countHtmlText(input: { html: string; find: string }): HtmlTextCount {
  return countIn(parseSectionHtml(input.html), input.html, input.find);
}

/** The section with every in-text occurrence of `find` replaced, sanitised as canvas HTML is. */
export function replaceHtmlText(input: { html: string; find: string; replace: string }): SectionContent {
  const tree = parseSectionHtml(input.html);
  for (const run of textRuns(tree)) {
    for (const node of run) if (node.value.includes(input.find)) node.value = node.value.split(input.find).join(input.replace);
  }
  return canvasSection(stringifyHtml(tree));
}
