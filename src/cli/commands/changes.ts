import type { Command } from 'commander';
import { act, examples } from '../action';
import { seg } from '../client';
import { usage } from '../errors';
import { clip, table, when } from '../output';
import type { Data, Suggestible } from '../render';

type Change = Data<'changeList'>['changes'][number];

const byText = (by: { kind: string; name: string }) => `${by.name || '?'} (${by.kind})`;
const sectionsText = (c: Change) => (c.notes?.length ? `brief: ${c.notes.map((n) => n.title).join(', ')}` : c.sections.map((s) => `${s.anchor} +${s.inserted}/-${s.deleted}`).join(' '));

const articleOf = (given: string | undefined, command: string) => {
  if (given) return given;
  throw usage('Which article?', `Pass the article's id: ${command}.`);
};

/** The diff of one section as text: [-deleted-]{+inserted+}, the rest as it is. */
const diffText = (diff: Array<{ op: string; text: string }>) => diff.map((p) => (p.op === '+' ? `{+${p.text}+}` : p.op === '-' ? `[-${p.text}-]` : p.text)).join('');

export function registerChanges(program: Command) {
  const changes = program
    .command('changes [article]')
    .description('The change sets of an article (every write: who, why, when, what): list, show, revert')
    .option('--since <anchor-or-time>', 'only those after this change set (anchor) or since this ISO time')
    .option('--by <kind>', 'only those by agent, human or editor')
    .option('--in-run <run>', 'only those of this run (Quire-Run, --run)')
    .option('--section <anchor>', 'only those that changed this section')
    .option('--limit <n>', 'how many (1-100, default 50)')
    .option('--cursor <cursor>', 'the next page (the nextCursor of --json)')
    .addHelpText(
      'after',
      examples([
        'quire changes "$ART"',
        'quire changes "$ART" --by agent --limit 10',
        'quire changes show "$ART" 9c1e2a',
        'quire changes revert 9c1e2a --in "$ART" --dry-run',
        'quire changes revert --in "$ART" --in-run nightly-42 --reason "the run went wrong"',
      ]),
    )
    .action(
      act(async (ctx, article: string | undefined, options: { since?: string; by?: string; inRun?: string; section?: string; limit?: string; cursor?: string }) => {
        const id = articleOf(article, 'quire changes <article>');
        const res = await ctx.client.call<Data<'changeList'>>('GET', `/articles/${seg(id)}/changes`, {
          query: { since: options.since, by: options.by, run: options.inRun, section: options.section, limit: options.limit, cursor: options.cursor },
        });
        const { changes: list, nextCursor } = res.envelope.data;
        ctx.out.result(res, () => {
          if (!list.length) return 'No change sets.';
          const rows = list.map((c) => [c.anchor, when(c.at), byText(c.by), c.status, clip(c.reason ?? '', 40), clip(sectionsText(c), 50)]);
          return table(['CHANGE', 'WHEN', 'BY', 'STATUS', 'REASON', 'SECTIONS'], rows) + (nextCursor ? `\n\nMore: quire changes ${id} --cursor ${nextCursor}` : '');
        });
      }),
    );

  changes
    .command('show <article> <anchor>')
    .description('One change set, with its word-level diff per section ([-deleted-] {+inserted+})')
    .addHelpText('after', examples(['quire changes show "$ART" 9c1e2a']))
    .action(
      act(async (ctx, id: string, anchor: string) => {
        const res = await ctx.client.call<Data<'changeOnly'>>('GET', `/articles/${seg(id)}/changes/${seg(anchor)}`);
        const c = res.envelope.data.change;
        ctx.out.result(res, () =>
          [
            `Change ${c.anchor}: ${c.status}, by ${byText(c.by)} at ${when(c.at)}${c.run ? `, run ${c.run}` : ''}`,
            ...(c.reason ? [`Reason: ${c.reason}`] : []),
            ...(c.revertedBy ? [`Reverted by ${c.revertedBy}`] : []),
            ...c.sections.map((s) => `\n--- ${s.anchor} ${s.title} (+${s.inserted}/-${s.deleted})\n${diffText(s.diff ?? [])}`),
          ].join('\n'),
        );
      }),
    );

  changes
    .command('revert [anchor]')
    .description('Undo a change set (or with --in-run a whole run) in the text as it is now; later writing by others stays')
    .option('--in <article>', 'the article (its id or a unique start of it)')
    .option('--in-run <run>', 'revert every change set of this run instead of one')
    .option('--dry-run', 'show what would be reverted; write nothing')
    .addHelpText('after', examples(['quire changes revert 9c1e2a --in "$ART" --dry-run', 'quire changes revert 9c1e2a --in "$ART" --reason "wrong figures"']))
    .action(
      act(async (ctx, anchor: string | undefined, options: { in?: string; inRun?: string; dryRun?: boolean }) => {
        const id = articleOf(options.in, 'quire changes revert <anchor> --in <article>');
        if ((anchor === undefined) === (options.inRun === undefined)) throw usage('Pass a change set\'s anchor or --in-run <run>, one of them.', 'See "quire changes revert --help".');
        const dryRun = options.dryRun ? { dryRun: true } : {};
        const res =
          anchor !== undefined
            ? await ctx.client.call<Suggestible<'reverted'>>('POST', `/articles/${seg(id)}/changes/${seg(anchor)}/revert`, { body: dryRun })
            : await ctx.client.call<Suggestible<'reverted'>>('POST', `/articles/${seg(id)}/changes/revert`, { body: { run: options.inRun, ...dryRun } });
        const data = res.envelope.data;
        if ('suggestion' in data) return ctx.out.result(res, () => `Not applied: your key may only suggest. Suggestion ${data.suggestion.anchor} is pending review.`);
        ctx.out.result(res, () =>
          [
            options.dryRun ? 'Dry run: nothing was written.' : `Reverted ${data.reverted.join(', ')} as change ${data.change?.anchor}.`,
            ...(options.dryRun ? [`Would revert: ${data.reverted.join(', ')}`] : []),
            ...data.conflicts.map((c) => `Conflict in ${c.section}: "${c.text}": ${c.reason}`),
          ].join('\n'),
        );
      }),
    );
}
