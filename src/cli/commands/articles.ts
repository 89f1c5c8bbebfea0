import type { Command } from 'commander';
import { act, examples } from '../action';
import { seg } from '../client';
import { confirm, readText } from '../io';
import { clip, plural, table, when } from '../output';
import { articleHeader, notesTable, outlineTable, type ArticleRecord } from '../render';
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
        'quire articles show 3f2a9c41-...',
        'quire articles delete 3f2a9c41-... --yes',
      ]),
    );

  articles
    .command('list')
    .description('List your articles, most recently updated first')
    .option('--limit <n>', 'how many (1-100, default 20)', positiveInt('--limit'))
    .option('--cursor <cursor>', 'the next page (printed after a full page)')
    .action(
      act(async (ctx, options: { limit?: number; cursor?: string }) => {
        const res = await ctx.client.call('GET', '/articles', { query: { limit: options.limit, cursor: options.cursor } });
        const { articles: list, nextCursor } = res.envelope.data as { articles: ArticleRecord[]; nextCursor: string | null };
        ctx.out.result(res, () => {
          if (!list.length) return 'No articles yet. Create one with "quire articles create --title <title> [file]".';
          return table(
            ['ID', 'STATUS', 'WORDS', 'SECTIONS', 'UPDATED', 'TITLE'],
            list.map((a) => [a.id, a.status, a.words, a.sections, when(a.updatedAt), clip(a.title, 60)]),
          );
        });
        if (nextCursor && !ctx.out.json) ctx.out.info(`More: quire articles list --cursor ${nextCursor}`);
      }),
    );

  articles
    .command('create [file]')
    .description('Create an article, from a Markdown file, from stdin ("-"), or empty')
    .requiredOption('--title <title>', 'the article\'s title')
    .option('--premise <text>', 'the Brief\'s premise')
    .addHelpText(
      'after',
      examples(['quire articles create --title "Draft"', 'quire articles create --title "Essay" essay.md --premise "Why anchors beat line numbers"', 'pandoc -t gfm in.docx | quire articles create --title "Imported" -']),
    )
    .action(
      act(async (ctx, file: string | undefined, options: { title: string; premise?: string }) => {
        const markdown = await readText(file, 'Markdown', false);
        const body: Record<string, unknown> = { title: options.title };
        if (markdown !== undefined) body.markdown = markdown;
        if (options.premise !== undefined) body.premise = options.premise;
        const res = await ctx.client.call('POST', '/articles', { body });
        const { article, outline } = res.envelope.data;
        ctx.out.result(res, () => `Created article ${article.id}: ${article.title}\n${plural(article.sections, 'section')}, ${plural(article.words, 'word')}\n\n${outlineTable(outline)}`);
      }),
    );

  articles
    .command('show <article>')
    .description('Show an article: its record, outline and Brief')
    .action(
      act(async (ctx, id: string) => {
        const res = await ctx.client.call('GET', `/articles/${seg(id)}`);
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
    .action(
      act(async (ctx, id: string, title: string) => {
        const res = await ctx.client.call('PATCH', `/articles/${seg(id)}`, { body: { title } });
        ctx.out.result(res, () => `Renamed ${res.envelope.data.article.id} to: ${res.envelope.data.article.title}`);
      }),
    );

  articles
    .command('delete <article>')
    .description('Delete an article with its sections and notes, for good (asks first unless --yes)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      act(async (ctx, id: string, options: { yes?: boolean }) => {
        if (!options.yes) {
          const found = await ctx.client.call('GET', `/articles/${seg(id)}`);
          const a = found.envelope.data.article as ArticleRecord;
          await confirm(`Delete "${a.title}" (${plural(a.sections, 'section')}, ${plural(a.words, 'word')})? This cannot be undone.`, false);
        }
        const res = await ctx.client.call('DELETE', `/articles/${seg(id)}`);
        ctx.out.result(res, () => `Deleted article ${res.envelope.data.id}.`);
      }),
    );

  articles
    .command('publish <article>')
    .description('Publish an article (or republish it as it is now): prints its public URL. Also: quire publish')
    .action(publishAction);

  articles
    .command('unpublish <article>')
    .description('Take a published article back to draft (its public copies disappear). Also: quire unpublish')
    .action(unpublishAction);

  importOptions(
    articles
      .command('import [source]')
      .description('Import an article from a Markdown or HTML file, stdin ("-"), or a web page URL. Also: quire import'),
  ).action(importAction);

  // The everyday verbs at the top level too: quire publish / unpublish / import.
  program
    .command('publish <article>')
    .description('Publish an article (or republish it as it is now): prints its public URL')
    .addHelpText('after', examples(['quire publish 3f2a9c41-...', 'URL=$(quire publish 3f2a9c41-... --json | jq -r .data.url)']))
    .action(publishAction);

  program
    .command('unpublish <article>')
    .description('Take a published article back to draft (its public copies disappear)')
    .action(unpublishAction);

  importOptions(
    program.command('import [source]').description('Import an article from a Markdown or HTML file, stdin ("-"), or a web page URL'),
  ).action(importAction);

  program
    .command('outline <article>')
    .description('Show an article\'s outline: the anchor, level, words and source of each section')
    .addHelpText('after', examples(['quire outline 3f2a9c41-...', 'quire outline 3f2a9c41-... --json | jq -r ".data.outline[].anchor"']))
    .action(
      act(async (ctx, id: string) => {
        const res = await ctx.client.call('GET', `/articles/${seg(id)}/outline`);
        ctx.out.result(res, () => outlineTable(res.envelope.data.outline));
      }),
    );
}

const publishAction = act(async (ctx, id: string) => {
  const res = await ctx.client.call('POST', `/articles/${seg(id)}/publish`);
  ctx.out.result(res, () => `Published: ${res.envelope.data.url}\nMarkdown:  ${res.envelope.data.markdownUrl}`);
});

const unpublishAction = act(async (ctx, id: string) => {
  const res = await ctx.client.call('DELETE', `/articles/${seg(id)}/publish`);
  ctx.out.result(res, () => `Unpublished ${res.envelope.data.article.id}; it is a draft again.`);
});

function importOptions(command: Command): Command {
  return command
    .option('--html', 'the content is HTML (the default for .html and .htm files)')
    .option('--markdown', 'the content is Markdown (the default otherwise)')
    .option('--from-url <url>', 'import this web page (the same as passing the URL as the source)')
    .option('--title <title>', 'the title (default: the front matter\'s, else the document\'s)')
    .addHelpText(
      'after',
      examples([
        'quire import notes.md',
        'quire import page.html --title "A better title"',
        'pandoc -t gfm in.docx | quire import -',
        'quire import https://example.com/post',
        'quire articles import --from-url https://example.com/post',
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
      body[html ? 'html' : 'markdown'] = await readText(source, html ? 'HTML' : 'Markdown', true);
    }
    if (options.title !== undefined) body.title = options.title;
    const res = await ctx.client.call('POST', '/articles/import', { body, timeoutMs: 120_000 });
    const { article, outline } = res.envelope.data;
    ctx.out.result(res, () => `Imported article ${article.id}: ${article.title}\n${plural(article.sections, 'section')}, ${plural(article.words, 'word')}\n\n${outlineTable(outline)}`);
  },
);
