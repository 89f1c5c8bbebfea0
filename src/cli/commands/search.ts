import type { Command } from 'commander';
import { act, examples } from '../action';
import { seg } from '../client';
import { usage } from '../errors';
import { table } from '../output';
import { sectionTitle, type Data } from '../render';

type Match = Data<'articleSearch'>['matches'][number];

/** One line per matching section: its anchor, how often, its title, then its snippets indented. */
function matchLines(matches: Match[]): string {
  return matches
    .map((m) => {
      const head = table(['ANCHOR', 'COUNT', 'TITLE'], [[m.anchor, m.count, sectionTitle(m.title)]])
        .split('\n')
        .slice(1)
        .join('\n');
      return [head, ...m.snippets.map((s) => `    ${s}`)].join('\n');
    })
    .join('\n');
}

const limitOf = (value: string | undefined, max: number) => {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) throw usage(`--limit must be an integer from 1 to ${max}.`, `Pass --limit 1 to ${max}, or leave it out.`);
  return Number(value);
};

export function registerSearch(program: Command) {
  program
    .command('search <text>')
    .description('Find text (literally, any case) in one article (--in) or across all your articles')
    .option('--in <article>', 'search this article only (its id or a unique start of it)')
    .option('--limit <n>', 'how many sections (in one article, 1-200) or articles (everywhere, 1-100) to show')
    .option('--cursor <cursor>', 'everywhere: the next page (the nextCursor of --json)')
    .addHelpText(
      'after',
      examples([
        'quire search "pricing model"                 # every article of yours',
        'quire search "100%" --in "$ART"              # % _ * are plain characters',
        "quire search TODO --in \"$ART\" --json | jq -r '.data.matches[].anchor'",
      ]),
    )
    .action(
      act(async (ctx, text: string, options: { in?: string; limit?: string; cursor?: string }) => {
        if (options.in !== undefined) {
          if (options.cursor !== undefined) throw usage('--cursor pages the search across articles; one article\'s answer is not paged.', 'Leave out --cursor, or --in.');
          const res = await ctx.client.call<Data<'articleSearch'>>('GET', `/articles/${seg(options.in)}/search`, { query: { q: text, limit: limitOf(options.limit, 200) } });
          const { matches } = res.envelope.data;
          return ctx.out.result(res, () => (matches.length ? matchLines(matches) : `No section contains "${text}".`));
        }
        const res = await ctx.client.call<Data<'searchResults'>>('GET', '/search', { query: { q: text, limit: limitOf(options.limit, 100), cursor: options.cursor } });
        const { results, nextCursor } = res.envelope.data;
        ctx.out.result(res, () => {
          if (!results.length) return `None of your articles contains "${text}".`;
          const blocks = results.map((r) => `${r.article.id}  ${r.article.title}\n${matchLines(r.matches).replace(/^/gm, '  ')}`);
          return blocks.join('\n\n') + (nextCursor ? `\n\nMore: quire search ${JSON.stringify(text)} --cursor ${nextCursor}` : '');
        });
      }),
    );
}
