/**
 * The linear rewrites of issue 11 (item 3) give exactly what the quadratic code gave: word
 * counts a chunk at a time, sections rendered with only the definitions they use, Markdown URLs
 * rewritten in one pass, YAML's duplicate keys found with a set. Each is compared with the old
 * algorithm (kept here as the reference) on ordinary inputs.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Root as HastRoot, RootContent as HastContent } from 'hast';
import type { Root as MdastRoot, RootContent as MdastContent } from 'mdast';
import { toString as mdastToString } from 'mdast-util-to-string';
import rehypeRaw from 'rehype-raw';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { parse as parseYaml } from 'yaml';
import { absoluteUrl, absolutizeMarkdown } from '../../src/plugins/quire/server/src/domain/absolute-urls';
import { splitFrontMatter } from '../../src/plugins/quire/server/src/domain/front-matter';
import { countWords, splitMarkdown } from '../../src/plugins/quire/server/src/domain/markdown';
import { buildPublication, assemblePublication, publicationContent } from '../../src/plugins/quire/server/src/domain/publication';
import { MAX_SVG_ATTRIBUTES, mostAttributesOnOneElement, sanitizeSvg } from '../../src/plugins/quire/server/src/domain/svg';

const root = path.join(__dirname, '..', '..');
const repoDocs = ['README.md', 'docs/api.md', 'docs/architecture.md', 'docs/cli.md', 'docs/operations.md']
  .map((file) => path.join(root, file))
  .filter((file) => fs.existsSync(file))
  .map((file) => fs.readFileSync(file, 'utf8'));

// ---- The old algorithms, as references ----------------------------------------------------

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
function wholeStringWords(text: string): number {
  let n = 0;
  for (const segment of segmenter.segment(text)) if (segment.isWordLike) n += 1;
  return n;
}

const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'i', 'ins', 'kbd', 'mark', 'q',
  'rp', 'rt', 'ruby', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var',
]);
function oldHastText(node: HastRoot | HastContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'root' && node.type !== 'element') return '';
  const inner = node.children.map(oldHastText).join('');
  return node.type === 'element' && !INLINE.has(node.tagName) ? `\n${inner}\n` : inner;
}

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeRaw)
  .use(rehypeSanitize, defaultSchema)
  .use(rehypeStringify)
  .freeze();

/** splitMarkdown as it was: every section rendered with every definition of the document. */
function oldSplitMarkdown(markdown: string) {
  const nodes = (processor.parse(markdown) as MdastRoot).children;
  const definitions = nodes.filter((n) => n.type === 'definition' || n.type === 'footnoteDefinition');
  const starts: number[] = [];
  nodes.forEach((node, i) => node.type === 'heading' && starts.push(i));
  const groups: { from: number; to: number }[] = [];
  if (starts[0] !== 0) groups.push({ from: 0, to: starts[0] ?? nodes.length });
  starts.forEach((start, k) => groups.push({ from: start, to: starts[k + 1] ?? nodes.length }));
  const sections: Array<{ title: string; markdown: string; html: string; words: number }> = [];
  for (const { from, to } of groups) {
    const first = nodes[from] as MdastContent | undefined;
    const sliceStart = first?.type === 'heading' ? first.position!.start.offset! : 0;
    const next = nodes[to];
    const slice = markdown
      .slice(sliceStart, next ? next.position!.start.offset! : markdown.length)
      .replace(/^(?:[ \t]*\r?\n)+/, '')
      .replace(/\s+$/, '');
    if (!slice) continue;
    const own = nodes.slice(from, to);
    const borrowed = definitions.filter((d) => !own.includes(d));
    const hast = processor.runSync({ type: 'root', children: [...own, ...borrowed] } as MdastRoot) as HastRoot;
    sections.push({
      title: first?.type === 'heading' ? mdastToString(first, { includeHtml: false }).replace(/\s+/g, ' ').trim() : '',
      markdown: slice,
      html: processor.stringify(hast),
      words: wholeStringWords(oldHastText(hast)),
    });
  }
  return sections;
}

/** absolutizeMarkdown as it was: one copy of the document per rewritten URL. */
function oldAbsolutizeMarkdown(markdown: string, base: string): string {
  const tree = unified().use(remarkParse).use(remarkGfm).parse(markdown) as MdastRoot;
  const edits: Array<{ start: number; end: number; text: string }> = [];
  visit(tree, (node: any) => {
    if (!['link', 'image', 'definition'].includes(node.type) || typeof node.url !== 'string') return;
    const absolute = absoluteUrl(node.url, base);
    const start = node.position?.start?.offset;
    const end = node.position?.end?.offset;
    if (absolute === node.url || start === undefined || end === undefined) return;
    const slice = markdown.slice(start, end);
    const from = node.type === 'definition' ? slice.indexOf(']:') : slice.lastIndexOf('](');
    const at = from < 0 ? -1 : slice.indexOf(node.url, from);
    if (at >= 0) edits.push({ start: start + at, end: start + at + node.url.length, text: absolute });
  });
  let result = markdown;
  for (const edit of edits.sort((a, b) => b.start - a.start)) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

/** The front matter as the yaml package's own (quadratic) duplicate-key check reads it. */
function oldFrontMatter(source: string): unknown {
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(source);
  if (!match) return { data: {}, body: source };
  try {
    return { data: parseYaml(match[1], { maxAliasCount: 50 }) ?? {}, body: source.slice(match[0].length) };
  } catch (error) {
    return `The front matter is not valid YAML: ${(error as Error).message.split('\n')[0]}`;
  }
}

// ---- Inputs ----------------------------------------------------------------------------------

/** A small deterministic random generator, so that failures reproduce. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORD_PIECES = [
  'The tide pools at dawn', 'hold more life', "it's", 'don’t', '3.14', '1,000', 'e\u0301te\u0301', 'naïve',
  '日本語の文章です。', 'これはテストです。', '中文句子，很长。', 'สวัสดีครับ', 'นี่คือการทดสอบ', '한국어 문장',
  '👍🏽', '👨‍👩‍👧', '🇫🇷', 'a\u200db', 'x\u00ady', 'C++', 'foo_bar', 'a.b.c', '—', '...', '\n', '\n\n', '\t', '  ',
];

function mixedText(seed: number, length: number): string {
  const next = random(seed);
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    const piece = WORD_PIECES[Math.floor(next() * WORD_PIECES.length)];
    parts.push(piece, next() < 0.8 ? ' ' : '');
    size += piece.length + 1;
  }
  return parts.join('');
}

/** Documents with references across sections: links, images, footnotes (also inside footnotes), duplicates, case. */
function referencesDocument(seed: number): string {
  const next = random(seed);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const labels = ['a', 'B', 'c d', 'Émile', 'x'];
  const blocks: string[] = ['Intro with [a] and [^1].'];
  for (let i = 0; i < 12; i += 1) {
    blocks.push(`${pick(['#', '##', '###'])} Part ${i}`);
    const inline = [
      `See [${pick(labels)}] and [text][${pick(labels)}] and ![img][${pick(labels)}].`,
      `A note[^${pick(['1', '2', 'n', 'N'])}] and [inline](/in/${i}).`,
      `Plain words ${i}, nothing referenced.`,
      `Unknown [nothing] and [^missing].`,
    ];
    blocks.push(pick(inline), pick(inline));
    if (next() < 0.5) blocks.push(`[${pick(labels)}]: /def/${i} "Title ${i}"`);
    if (next() < 0.4) blocks.push(`[^${pick(['1', '2', 'n'])}]: Footnote ${i} citing [^${pick(['1', '2', 'n'])}] and [${pick(labels)}].`);
  }
  blocks.push('[a]: /first-a', '[^2]: Second, with [B].', '[b]: /lower-b', '[^N]: Upper N.');
  return blocks.join('\n\n');
}

// ---- Tests -----------------------------------------------------------------------------------

describe('countWords, a chunk at a time', () => {
  it('counts as segmenting the whole text does, in many scripts and sizes', () => {
    for (let seed = 1; seed <= 30; seed += 1) {
      const text = mixedText(seed, 500 + seed * 300);
      expect([seed, countWords(text)]).toEqual([seed, wholeStringWords(text)]);
    }
    // (The reference is quadratic: documents up to 20 KB keep it quick.)
    for (const text of repoDocs.filter((doc) => doc.length < 20_000)) expect(countWords(text)).toBe(wholeStringWords(text));
  });

  it('cuts long lines of spaced prose and of CJK sentences at boundaries, not inside words', () => {
    const prose = 'The tide pools at dawn hold more life than the eye first finds. '.repeat(400);
    const cjk = '日本語の文章です。これはテストです。'.repeat(400);
    const mixed = '中文句子很长，有很多字。Words between them 123 and more. '.repeat(300);
    for (const text of [prose, cjk, mixed]) expect(countWords(text)).toBe(wholeStringWords(text));
  });

  it('stays linear: 200 KB of prose in one paragraph is counted a chunk at a time', () => {
    const text = 'The tide pools at dawn hold more life than the eye first finds. '.repeat(3300);
    expect(countWords(text)).toBe(13 * 3300);
  });
});

describe('splitMarkdown renders each section with only the definitions it uses', () => {
  it('gives the same sections, HTML and word counts as rendering every definition everywhere', () => {
    const docs = [...repoDocs, ...Array.from({ length: 25 }, (_, i) => referencesDocument(i + 1))];
    for (const doc of docs) {
      const now = splitMarkdown(doc).map(({ title, markdown, html, words }) => ({ title, markdown, html, words }));
      expect(now).toEqual(oldSplitMarkdown(doc));
    }
  });
});

describe('absolutizeMarkdown in one pass', () => {
  it('rewrites the same URLs as the copy-per-edit version', () => {
    const base = 'https://quire.example/blog';
    const docs = [
      ...repoDocs,
      '[a](/x) ![b](img.png "t") [c](<a b>) [d](#frag) [e](https://abs.example/) [f](../up) [g](/x?q=1#h)\n\n[ref]: /r "T"\n[abs]: https://a.example/',
      '[![inner](/i.png)](/outer) and [x](/t "title with ](/t inside")',
      Array.from({ length: 300 }, (_, i) => `[l${i}](/p${i}) ![i${i}](img${i}.png)`).join(' '),
    ];
    for (const doc of docs) expect(absolutizeMarkdown(doc, base)).toBe(oldAbsolutizeMarkdown(doc, base));
  });
});

describe('publication content and assembly', () => {
  it('build = assemble(content): the slow part does not depend on the title, slug or date', () => {
    const sections = splitMarkdown(referencesDocument(7)).map((s) => ({ source: s.source, markdown: s.markdown, html: s.html }));
    const input = { title: 'T', slug: 't', publicUrl: 'https://quire.example/', publishedAt: '2026-01-02T03:04:05.000Z', sections };
    const content = publicationContent(sections, input.publicUrl);
    expect(assemblePublication(content, input)).toEqual(buildPublication(input));
  });
});

describe('front matter: duplicate keys found in one pass', () => {
  const cases = [
    'title: A\npremise: B',
    'title: A\npremise: B\ntitle: C',
    'a: 1\nb: 2\na: 3',
    'x:\n  - {p: 1, p: 2}',
    'a: 1\nb: [\nb: 2',
    'b: [\na: 1\na: 2',
    'a: 1\n"a": 2',
    "a: 1\n'a': 2",
    '1: x\n"1": y',
    '1: x\n1: y',
    'true: x\n"true": y\ntrue: z',
    '.nan: 1\n.nan: 2',
    '&k a: 1\n!!str a: 2',
    'a: &x {b: 1}\nc: *x\nc: 2',
    'notes:\n  - kind: idea\n    title: I\n    kind: x',
    'outer:\n  inner: 1\n  inner: 2\nouter: 3',
    '? [1]\n: 1\n? [1]\n: 2',
    '~: 1\nnull: 2',
    'a: 1\n---\nb: 2',
    'list: [1, 2\n',
    '- not a mapping',
    'x: *missing',
  ];
  it.each(cases)('%j reads as the yaml package reads it', (yaml) => {
    const source = `---\n${yaml}\n---\nBody.`;
    let now: unknown;
    try {
      now = splitFrontMatter(source);
    } catch (error) {
      now = (error as Error).message;
    }
    const old = oldFrontMatter(source);
    if (typeof old === 'object' && old && Array.isArray((old as { data: unknown }).data)) {
      expect(now).toBe('The front matter must be a YAML mapping (title, premise, notes).');
    } else {
      expect(now).toEqual(old);
    }
  });

  it('reads 30,000 keys without comparing each with every other', () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `k${i}: ${i}`).join('\n');
    expect(Object.keys(splitFrontMatter(`---\n${lines}\n---\n`).data)).toHaveLength(30_000);
    expect(() => splitFrontMatter(`---\n${lines}\nk17: again\n---\n`)).toThrow(
      'The front matter is not valid YAML: Map keys must be unique at line 30001, column 1:',
    );
  });
});

describe('SVG: attributes counted before jsdom parses', () => {
  it('counts the attributes of the busiest element, outside quotes, comments and CDATA', () => {
    expect(mostAttributesOnOneElement('<svg a="1" b=\'=>\' c="x"><g d="1"/></svg>')).toBe(3);
    expect(mostAttributesOnOneElement('<svg><!-- <g a="1" b="2" c="3" d="4"> --><![CDATA[ <x a="1" b="2"> ]]><?pi a="1" b="2"?><g a="1"/></svg>')).toBe(1);
    expect(mostAttributesOnOneElement('no tags at all')).toBe(0);
    expect(mostAttributesOnOneElement('<svg a="1" b="')).toBe(2);
  });

  it(`refuses an element with more than ${MAX_SVG_ATTRIBUTES} attributes before parsing it`, () => {
    const attrs = (n: number) => Array.from({ length: n }, (_, i) => ` a${i}="x"`).join('');
    const svg = (n: number) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"${attrs(n)}><rect width="1" height="1"/></svg>`);
    expect(() => sanitizeSvg(svg(200_000))).toThrow(`The SVG has an element with more than ${MAX_SVG_ATTRIBUTES} attributes, which is not accepted.`);
    expect(sanitizeSvg(svg(MAX_SVG_ATTRIBUTES - 1))).toBe('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>');
  });
});
