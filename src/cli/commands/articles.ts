import type { Command } from 'commander';
import { act, examples } from '../action';
import { seg } from '../client';
import { confirm, readText, refuseFileName } from '../io';
import { clip, plural, table, when } from '../output';
import { articleHeader, notesTable, outlineTable, shortIds, type Data } from '../render';
import { usage } from '../errors';

const positiveInt = (name: string) => (value: string) => {
  if (!/^\d+$/.test(value)) throw usage(`${name} must be a whole number.`);
  return Number(value);
};

export function registerArticles(program: Command) {
  const articles = program
    .command('articles')
    .description('List, create, show, rename, delete, publish and import articles')
    .addHelpText(
      'after',
      examples([
        'quire articles list',
        'quire articles create --title "On anchors" draft.md',
        'cat draft.md | quire articles create --title "On anchors" -',
        'quire articles show 3f2a9c41',
        'quire articles delete 3f2a9c41 --yes',
      ]),
    );

  articles
    .command('list')
    .description('List your articles, most recently updated first')
    .option('--limit <n>', 'how many (1-100, default 20)', positiveInt('--limit'))
    .option('--cursor <cursor>', 'the next page (printed after a full page)')
    .addHelpText(
      'after',
      examples(['quire articles list', 'quire articles list --limit 50', "quire articles list --json | jq -r '.data.articles[].id'"]) +
        '\nIDs are short: the first 8 characters of each id (more when two would share them). Any unique\nprefix of 4 characters or more addresses an article; --json shows the full ids.\n',
    )
    .action(
      act(async (ctx, options: { limit?: number; cursor?: string }) => {
        const res = await ctx.client.call<Data<'articlePage'>>('GET', '/articles', { query: { limit: options.limit, cursor: options.cursor } });
        const { articles: list, nextCursor } = res.envelope.data;
        ctx.out.result(res, () => {
          if (!list.length) return 'No articles yet. Create one with: quire articles create --title "A title" [file]';
          const short = shortIds(list.map((a) => a.id));
          return table(
            ['ID', 'STATUS', 'WORDS', 'SECTIONS', 'UPDATED', 'TITLE'],
            list.map((a) => [short.get(a.id), a.status, a.words, a.sections, when(a.updatedAt), clip(a.title, 60)]),
          );
        });
        if (nextCursor && !ctx.out.json) ctx.out.info(`More: quire articles list --cursor ${nextCursor}`);
      }),
    );

  articles
    .command('create [file]')
    .description('Create an article, from a Markdown file, from stdin ("-"), or empty')
    .requiredOption('--title <title>', 'the article\'s title')
    .option('--premise <text>', 'the Brief\'s premise (the text itself)')
    .option('--premise-file <file>', 'read the premise from a file ("-" for stdin)')
    .addHelpText(
      'after',
      examples([
        'quire articles create --title "Draft"',
        'quire articles create --title "On anchors" intro.md',
        'quire articles create --title "Essay" essay.md --premise "Why anchors beat line numbers"',
        'quire articles create --title "Essay" essay.md --premise-file premise.txt',
        'pandoc -t gfm in.docx | quire articles create --title "Imported" -',
      ]),
    )
    .action(
      act(async (ctx, file: string | undefined, options: { title: string; premise?: string; premiseFile?: string }) => {
        if (options.premise !== undefined && options.premiseFile !== undefined) throw usage('--premise and --premise-file cannot be combined.');
        if (file === '-' && options.premiseFile === '-') throw usage('Only one of the Markdown and --premise-file can come from stdin ("-").');
        if (options.premise !== undefined) refuseFileName(options.premise, 'a premise', '--premise-file');
        const markdown = await readText(file, { what: 'Markdown', required: false, command: `quire articles create --title ${JSON.stringify(options.title)}` });
        const premise = options.premiseFile !== undefined ? (await readText(options.premiseFile, { what: 'premise', required: true }))!.trim() : options.premise;
        const body: Record<string, unknown> = { title: options.title };
        if (markdown !== undefined) body.markdown = markdown;
        if (premise !== undefined) body.premise = premise;
        const res = await ctx.client.call<Data<'articleWithOutline'>>('POST', '/articles', { body });
        const { article, outline } = res.envelope.data;
        ctx.out.result(res, () => `Created article ${article.id}: ${article.title}\n${plural(article.sections, 'section')}, ${plural(article.words, 'word')}\n\n${outlineTable(outline)}`);
      }),
    );

  articles
    .command('show <article>')
    .description('Show an article: its record, outline and Brief')
    .addHelpText('after', examples(['quire articles show 3f2a9c41', 'quire articles show "$ART" --json']))
    .action(
      act(async (ctx, id: string) => {
        const res = await ctx.client.call<Data<'articleFull'>>('GET', `/articles/${seg(id)}`);
        const { article, outline, brief } = res.envelope.data;
        ctx.out.result(res, () =>
          [
            articleHeader(article),
            '',
            'Outline:',
            outlineTable(outline),
            '',
            'Premise:',
            brief?.premise ?? '(none)',
            '',
            'Notes:',
            notesTable(brief?.notes ?? []),
          ].join('\n'),
        );
      }),
    );

  articles
    .command('rename <article> <title>')
    .description('Change an article\'s title')
    .addHelpText('after', examples(['quire articles rename 3f2a9c41 "On anchors, revised"']))
    .action(
      act(async (ctx, id: string, title: string) => {
        const res = await ctx.client.call<Data<'articleOnly'>>('PATCH', `/articles/${seg(id)}`, { body: { title } });
        ctx.out.result(res, () => `Renamed ${res.envelope.data.article.id} to: ${res.envelope.data.article.title}`);
      }),
    );

  articles
    .command('delete <article>')
    .description('Delete an article with its sections and notes, for good (asks first unless --yes)')
    .option('-y, --yes', 'do not ask for confirmation')
    .addHelpText('after', examples(['quire articles delete 3f2a9c41', 'quire articles delete "$ART" --yes']))
    .action(
      act(async (ctx, id: string, options: { yes?: boolean }) => {
        if (!options.yes) {
          const found = await ctx.client.call<Data<'articleFull'>>('GET', `/articles/${seg(id)}`);
          const a = found.envelope.data.article;
          await confirm(`Delete "${a.title}" (${plural(a.sections, 'section')}, ${plural(a.words, 'word')})? This cannot be undone.`, false);
        }
        const res = await ctx.client.call<Data<'articleDeleted'>>('DELETE', `/articles/${seg(id)}`);
        ctx.out.result(res, () => `Deleted article ${res.envelope.data.id}.`);
      }),
    );

  articles
    .command('publish <article>')
    .description('Publish an article (or republish it as it is now): prints its public URL. Also: quire publish')
    .addHelpText('after', PUBLISH_EXAMPLES('quire articles publish'))
    .action(publishAction);

  articles
    .command('unpublish <article>')
    .description('Take a published article back to draft (its public copies disappear). Also: quire unpublish')
    .addHelpText('after', examples(['quire articles unpublish 3f2a9c41']))
    .action(unpublishAction);

  importOptions(
    articles
      .command('import [source]')
      .description('Import an article from a Markdown or HTML file, stdin ("-"), or a web page URL. Also: quire import'),
    'quire articles import',
  ).action(importAction);

  // The everyday verbs at the top level too: quire publish / unpublish / import.
  program
    .command('publish <article>')
    .description('Publish an article (or republish it as it is now): prints its public URL')
    .addHelpText('after', PUBLISH_EXAMPLES('quire publish'))
    .action(publishAction);

  program
    .command('unpublish <article>')
    .description('Take a published article back to draft (its public copies disappear)')
    .addHelpText('after', examples(['quire unpublish 3f2a9c41']))
    .action(unpublishAction);

  importOptions(
    program.command('import [source]').description('Import an article from a Markdown or HTML file, stdin ("-"), or a web page URL'),
    'quire import',
  ).action(importAction);

  program
    .command('outline <article>')
    .description('Show an article\'s outline: the anchor, level, words and source of each section')
    .addHelpText('after', examples(['quire outline 3f2a9c41', "quire outline \"$ART\" --json | jq -r '.data.outline[].anchor'"]))
    .action(
      act(async (ctx, id: string) => {
        const res = await ctx.client.call<Data<'outlineOnly'>>('GET', `/articles/${seg(id)}/outline`);
        ctx.out.result(res, () => outlineTable(res.envelope.data.outline));
      }),
    );
}

const PUBLISH_EXAMPLES = (command: string) =>
  examples([`${command} 3f2a9c41`, `URL=$(${command} "$ART" --json | jq -r .data.url) && curl -s "$URL.md"`]);

const publishAction = act(async (ctx, id: string) => {
  const res = await ctx.client.call<Data<'published'>>('POST', `/articles/${seg(id)}/publish`);
  ctx.out.result(res, () => `Published: ${res.envelope.data.url}\nMarkdown:  ${res.envelope.data.markdownUrl}`);
});

const unpublishAction = act(async (ctx, id: string) => {
  const res = await ctx.client.call<Data<'articleOnly'>>('DELETE', `/articles/${seg(id)}/publish`);
  ctx.out.result(res, () => `Unpublished ${res.envelope.data.article.id}; it is a draft again.`);
});

function importOptions(command: Command, name: string): Command {
  return command
    .option('--html', 'the content is HTML (the default for .html and .htm files)')
    .option('--markdown', 'the content is Markdown (the default otherwise)')
    .option('--from-url <url>', 'import this web page (the same as passing the URL as the source)')
    .option('--title <title>', 'the title (default: the front matter\'s, else the document\'s)')
    .addHelpText(
      'after',
      examples([
        `${name} draft.md`,
        `${name} page.html --title "A better title"`,
        `pandoc -t gfm in.docx | ${name} -`,
        `${name} https://example.com/post`,
        `${name} --from-url https://example.com/post`,
      ]),
    );
}

const isUrl = (text: string) => /^https?:\/\//i.test(text);

const importAction = act(
  async (ctx, source: string | undefined, options: { html?: boolean; markdown?: boolean; fromUrl?: string; title?: string }) => {
    if (options.html && options.markdown) throw usage('--html and --markdown cannot be combined.');
    const body: Record<string, unknown> = {};
    const url = options.fromUrl ?? (source && isUrl(source) ? source : undefined);
    if (url) {
      if ((options.fromUrl && source) || options.html || options.markdown) {
        throw usage('A URL cannot be combined with a file, --html or --markdown.', 'Pass either a file (or "-") or a URL.');
      }
      body.url = url;
    } else {
      const html = options.html || (!options.markdown && !!source && /\.x?html?$/i.test(source));
      const what = html ? 'HTML' : 'Markdown';
      body[html ? 'html' : 'markdown'] = await readText(source, { what, required: true, command: 'quire import', missing: `Pass a file, "-" and pipe the ${what}, or a web page's URL.` });
    }
    if (options.title !== undefined) body.title = options.title;
    const res = await ctx.client.call<Data<'articleWithOutline'>>('POST', '/articles/import', { body, timeoutMs: 120_000 });
    const { article, outline } = res.envelope.data;
    if (ctx.out.json) return ctx.out.result(res, () => '');
    // Say what the import made of the document: the Brief too (front matter, the page's address).
    const brief = (await ctx.client.call<Data<'brief'>>('GET', `/articles/${seg(article.id)}/brief`)).envelope.data;
    const notes = brief.notes.map((n) => `  ${n.kind}: ${clip(n.title, 60)}${n.url ? ` <${n.url}>` : ''}`);
    ctx.out.result(res, () =>
      [
        `Imported article ${article.id}: ${article.title}`,
        `${plural(article.sections, 'section')}, ${plural(article.words, 'word')}`,
        `Premise: ${brief.premise === null ? '(none)' : clip(brief.premise, 100)}`,
        notes.length ? `Notes: ${notes.length}\n${notes.join('\n')}` : 'Notes: (none)',
        '',
        outlineTable(outline),
      ].join('\n'),
    );
  },
);
