import { canvasSection, countWords, emptySection, markdownProcessor, renderMarkdown, splitMarkdown } from '../../src/plugins/quire/server/src/domain/markdown';

describe('splitMarkdown', () => {
  it('starts a section at each top-level ATX or setext heading and keeps exact source slices', () => {
    const doc = '# One\n\nFirst *para*.\n\n## Two\n\nSecond.\n\nThree\n=====\n\nThird.\n';
    const sections = splitMarkdown(doc);
    expect(sections.map((s) => [s.level, s.title, s.markdown])).toEqual([
      [1, 'One', '# One\n\nFirst *para*.'],
      [2, 'Two', '## Two\n\nSecond.'],
      [1, 'Three', 'Three\n=====\n\nThird.'],
    ]);
    expect(sections.map((s) => s.markdown).join('\n\n') + '\n').toBe(doc);
    expect(sections.every((s) => s.source === 'markdown')).toBe(true);
  });

  it('does not split at headings inside code fences, indented code, block quotes, lists or HTML blocks', () => {
    const doc = [
      '# Real',
      '',
      '```md',
      '# not a heading',
      '```',
      '',
      '    # indented code',
      '',
      '> # quoted heading',
      '',
      '- # heading in a list',
      '',
      '<div>',
      '',
      '# inside html block? no: a blank line ends the HTML block',
      '',
      '</div>',
    ].join('\n');
    const titles = splitMarkdown(doc).map((s) => s.title);
    // CommonMark ends an HTML block at a blank line, so that heading is a real top-level one.
    expect(titles).toEqual(['Real', 'inside html block? no: a blank line ends the HTML block']);

    const fenced = '# A\n\n~~~\n# B\n## C\n~~~\n\n<details>\n# D\n</details>\n';
    expect(splitMarkdown(fenced).map((s) => s.title)).toEqual(['A']);
  });

  it('keeps text before the first heading as a level-0 section with an empty title', () => {
    const sections = splitMarkdown('\n\nIntro words here.\n\n# Title\n\nBody.');
    expect(sections[0]).toMatchObject({ level: 0, title: '', markdown: 'Intro words here.', words: 3 });
    expect(sections[1]).toMatchObject({ level: 1, title: 'Title', markdown: '# Title\n\nBody.' });
  });

  it('drops blank leading text and gives nothing for a blank document', () => {
    expect(splitMarkdown('   \n\n# Only\n').map((s) => s.title)).toEqual(['Only']);
    expect(splitMarkdown('  \n\t\n')).toEqual([]);
    expect(splitMarkdown('')).toEqual([]);
  });

  it('takes the title from the heading plain text, without inline markup or raw HTML', () => {
    const [section] = splitMarkdown('## The *quick* `brown` [fox](http://x.example) <b>jumps</b> ![alt](i.png)\n');
    expect(section.title).toBe('The quick brown fox jumps alt');
    expect(section.level).toBe(2);
  });

  it('supports all six heading levels and trims trailing blank lines without a final newline', () => {
    const doc = '# 1\n## 2\n### 3\n#### 4\n##### 5\n###### 6\n\n\n\n';
    const sections = splitMarkdown(doc);
    expect(sections.map((s) => s.level)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(sections[5].markdown).toBe('###### 6');
    expect(sections.every((s) => !s.markdown!.endsWith('\n'))).toBe(true);
  });

  it('renders GitHub-flavoured Markdown: tables, task lists, strikethrough, autolinks', () => {
    const [s] = splitMarkdown('# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo\n\n~~gone~~ www.example.com\n');
    expect(s.html).toContain('<table>');
    expect(s.html).toContain('<td>1</td>');
    expect(s.html).toMatch(/<input[^>]*type="checkbox"[^>]*checked[^>]*disabled|<input[^>]*checked[^>]*disabled/);
    expect(s.html).toContain('<del>gone</del>');
    expect(s.html).toContain('<a href="http://www.example.com">www.example.com</a>');
  });

  it('resolves reference links defined elsewhere in the document', () => {
    const sections = splitMarkdown('# A\n\nSee [the site][site].\n\n# B\n\n[site]: https://example.com\n');
    expect(sections[0].html).toContain('<a href="https://example.com">the site</a>');
    expect(sections[1].markdown).toBe('# B\n\n[site]: https://example.com');
  });
});

describe('rendering without the HTML parser\'s pass', () => {
  // Markdown without raw HTML skips rehype-raw (a second parse by an HTML parser): its HTML must be
  // what the whole pipeline gives, for the nodes that skip it and for those that must not.
  const docs = [
    '## Plain\n\nA paragraph with *emphasis*, **strong**, ~~deleted~~, `code` and a [link](https://example.com "title").',
    '# Lists\n\n- one\n- two\n  1. nested\n  2. ordered\n\n* loose\n\n* list\n\n- [ ] todo\n- [x] done',
    '### Quote\n\n> quoted\n> > twice\n\n***\n\nline  \nbreak\\\nagain',
    '| a | b | c |\n|:--|:-:|--:|\n| 1 | `x|y` | 3 |\n| short |',
    '![image](https://example.com/a.png "t") and ![ref image][img] and [ref][img] and [missing] www.example.com a@b.co <https://auto.link>\n\n[img]: https://example.com/b.png',
    '```js meta\nconst x = 1 < 2;\n```\n\n    indented code\n\n~~~\n\nstarts with a blank line\n~~~',
    'Footnote[^1] and another[^note].\n\n[^1]: The note.\n[^note]: Second, with `code`.',
    'Raw <b>inline</b> HTML and <span class="x" onclick="y">span</span>\n\n<div>\nblock *html*\n</div>',
    'Escapes \\* &amp; &copy; &#123; < > " \' and unicode café 日本語 👍🏽',
  ];
  const variants = docs.flatMap((doc) => [doc, doc.replace(/\n/g, '\r\n')]);
  it.each(variants)('%j', (doc) => {
    const [section] = splitMarkdown(doc);
    expect(section.html).toBe(String(markdownProcessor.processSync(doc)));
  });
});

describe('sanitising', () => {
  const markdownOnly = [
    '[a](javascript:alert(1))',
    '[b](JaVaScRiPt:alert(1))',
    '[c](&#106;avascript:alert(1))',
    '![d](data:image/svg+xml;base64,PHN2Zz48c2NyaXB0PmFsZXJ0KDEpPC9zY3JpcHQ+PC9zdmc+)',
    '<javascript:alert(1)>',
  ];
  const dangerous = [
    '<script>alert(1)</script>',
    '<img src=x onerror="alert(1)">',
    '<img src="data:image/png;base64,AAAA">',
    '<a href="javascript:alert(1)">e</a>',
    '<p style="background:url(javascript:alert(1))">f</p>',
    '<iframe src="https://evil.example"></iframe>',
    '<svg><script>alert(1)</script></svg>',
    '<details open ontoggle="alert(1)">g</details>',
    '<form action="https://evil.example"><input name="x"></form>',
  ];

  it.each(markdownOnly)('strips the dangerous parts of %s in Markdown', (input) => {
    const html = renderMarkdown(`# T\n\n${input}\n`);
    expect(html).not.toMatch(/(href|src)=|<script/i);
    expect(html).toMatch(/^<h1>T<\/h1>\n<p>/);
  });

  it.each(dangerous)('strips the dangerous parts of %s in Markdown and in canvas HTML', (input) => {
    for (const html of [renderMarkdown(`# T\n\n${input}\n`), canvasSection(`<h2>T</h2>${input}`).html]) {
      expect(html).not.toMatch(/javascript:|<script|onerror|ontoggle|style=|data:|<iframe|<form|<svg/i);
    }
  });

  it('keeps ordinary markup', () => {
    expect(renderMarkdown('**bold** and [link](https://example.com "t")')).toBe(
      '<p><strong>bold</strong> and <a href="https://example.com" title="t">link</a></p>',
    );
  });
});

describe('canvasSection', () => {
  it('is one html-source section titled by its first heading, sanitised', () => {
    const s = canvasSection('<p>lead</p><h3>Canvas <em>title</em></h3><p onclick="x()">Hello world</p><h2>Later</h2>');
    expect(s).toMatchObject({ level: 3, title: 'Canvas title', source: 'html', markdown: null, words: 6 });
    expect(s.html).toBe('<p>lead</p><h3>Canvas <em>title</em></h3><p>Hello world</p><h2>Later</h2>');
  });

  it('has level 0 and an empty title without a heading', () => {
    expect(canvasSection('<p>just text</p>')).toMatchObject({ level: 0, title: '', words: 2 });
    expect(canvasSection('')).toMatchObject({ level: 0, title: '', html: '', words: 0 });
  });
});

describe('link cards (the canvas\'s unfurl preview)', () => {
  const card =
    '<figure data-type="link-card" data-url="https://example.com/a" data-title="A page" data-description="About it" data-image="https://example.com/i.png" data-site-name="example.com">' +
    '<img src="https://example.com/i.png" alt=""><figcaption><a href="https://example.com/a">A page</a> About it</figcaption></figure>';

  it('survive the sanitiser with their data-* attributes, in canvas HTML and in Markdown', () => {
    for (const html of [canvasSection(card).html, renderMarkdown(card)]) {
      expect(html).toContain('<figure data-type="link-card" data-url="https://example.com/a" data-title="A page" data-description="About it" data-image="https://example.com/i.png" data-site-name="example.com">');
      expect(html).toContain('<figcaption><a href="https://example.com/a">A page</a> About it</figcaption>');
    }
  });

  it('lose what is not a card\'s: other data-*, other types, handlers, script URLs', () => {
    const html = canvasSection(
      '<figure data-type="link-card" data-url="javascript:alert(1)" data-image="data:image/png;base64,AA" data-evil="1" onclick="x()"><script>alert(1)</script>x</figure>' +
        '<figure data-type="embed" data-url="https://example.com">y</figure>',
    ).html;
    expect(html).toBe('<figure data-type="link-card">x</figure><figure data-url="https://example.com">y</figure>');
  });
});

describe('countWords', () => {
  it('counts words by Unicode segmentation, not punctuation', () => {
    expect(countWords('Hello, world! — it’s 3.14 ...')).toBe(4);
    expect(countWords('')).toBe(0);
    expect(countWords('你好世界')).toBe(2);
    expect(countWords('日本語のテキストです')).toBeGreaterThan(1);
  });

  it('counts ASCII text as Intl.Segmenter does (it is spared the segmenter for plain words)', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
    const segmented = (text: string) => [...segmenter.segment(text)].filter((s) => s.isWordLike).length;
    const alphabet = 'abcXYZ0123456789 \t\n\r\v\f.,;:!?\'"()[]{}_-/\\@#$%^&*+=<>|~`\u0000\u001f\u007f';
    // A fixed pseudo-random sequence (a linear congruential generator), so that a failure repeats.
    let seed = 21;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const differ: string[] = [];
    for (let i = 0; i < 20_000; i += 1) {
      let text = '';
      for (let j = next(30); j >= 0; j -= 1) text += alphabet[next(alphabet.length)];
      if (countWords(text) !== segmented(text)) differ.push(text);
    }
    expect(differ).toEqual([]);
    expect(countWords('(Hello), "world": it\'s e.g. 3.14, a_b, end.')).toBe(segmented('(Hello), "world": it\'s e.g. 3.14, a_b, end.'));
  });

  it('counts the heading and keeps block boundaries apart', () => {
    const [s] = splitMarkdown('# Title\nBody text\n\n- one\n- two\n\n|a|b|\n|-|-|\n|c|d|\n');
    expect(s.words).toBe(9);
    expect(splitMarkdown('# He**llo**\n')[0].words).toBe(1);
  });
});

describe('emptySection', () => {
  it('is level 0 with nothing in it', () => {
    expect(emptySection()).toEqual({ level: 0, title: '', markdown: '', html: '', words: 0, source: 'markdown', htmlText: null });
  });
});

describe('pathological nesting', () => {
  const { assertParseableMarkdown, splitMarkdown: split, renderMarkdown: render } = require('../../src/plugins/quire/server/src/domain/markdown');

  it('refuses Markdown nested deeper than the parser can take, naming the line', () => {
    const deepList = Array.from({ length: 1000 }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n');
    const deepQuote = '>'.repeat(10_000) + ' deep';
    const spaces = `intro\n\n${' '.repeat(100_000)}x`;
    for (const doc of [deepList, deepQuote, spaces]) {
      expect(() => split(doc)).toThrow(/nested too deeply at line \d+/);
      expect(() => render(doc)).toThrow(/nested too deeply/);
    }
    expect(() => assertParseableMarkdown(deepList)).toThrow(/line 201:/);
  });

  it('accepts ordinary nesting and long lines of text', () => {
    const nested = Array.from({ length: 20 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n');
    expect(() => split(`# T\n\n${nested}\n\n> > > quoted\n\n${'word '.repeat(20_000)}`)).not.toThrow();
  });
});
