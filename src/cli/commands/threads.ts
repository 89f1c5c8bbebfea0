import type { Command } from 'commander';
import { act, examples } from '../action';
import { seg } from '../client';
import { usage } from '../errors';
import { readText } from '../io';
import { clip, table, when } from '../output';
import type { ThreadData } from '../../plugins/quire/server/src/schemas/threads';

type Thread = ThreadData<'threadOnly'>['thread'];
type Comment = ThreadData<'commentOnly'>['comment'];

const byText = (by: { kind: string; name: string }) => `${by.name || '?'} (${by.kind})`;

function commentText(c: Comment): string {
  const runs = c.executions.map((e) => `  @${e.skill}: ${e.status}${e.id ? ` (execution ${e.id})` : ''}`);
  return [`${byText(c.by)} at ${when(c.at)}:`, ...c.body.split('\n').map((line) => `  ${line}`), ...runs].join('\n');
}

function threadText(t: Thread): string {
  return [
    `Thread ${t.anchor}: ${t.status}${t.detached ? ', detached (its text was deleted)' : ''}, on section ${t.section}`,
    `Quote: "${t.quote}"`,
    ...(t.resolvedBy ? [`Resolved by ${byText(t.resolvedBy)} at ${when(t.resolvedAt)}`] : []),
    '',
    ...t.comments.map(commentText),
  ].join('\n');
}

/** The comment: --body, else a file or "-" (stdin). */
async function bodyOf(options: { body?: string; file?: string }, command: string): Promise<string> {
  if (options.body !== undefined && options.file !== undefined) throw usage('--body and --file cannot be combined.', 'Pass the comment with one of them.');
  if (options.body !== undefined) return options.body;
  const text = await readText(options.file, { what: 'comment (Markdown)', required: true, command, missing: 'Pass --body "..." or --file <path> (or --file - and pipe it).' });
  return text ?? '';
}

export function registerThreads(program: Command) {
  const threads = program
    .command('threads')
    .description('Comments on quoted text of an article: list, show, create, reply, resolve, reopen')
    .addHelpText(
      'after',
      examples([
        'quire threads list "$ART" --status open',
        'quire threads create "$ART" 3f2a9c "the quoted words" --body "Source?"',
        'quire threads reply "$ART" 7b1e04 --body "@factcheck can you find one?"',
        'quire threads resolve "$ART" 7b1e04',
      ]),
    );

  threads
    .command('list <article>')
    .description('List the article\'s threads in outline order')
    .addHelpText('after', examples(['quire threads list "$ART"', 'quire threads list "$ART" --status open --section 3f2a9c']))
    .option('--status <status>', 'open or resolved')
    .option('--section <anchor>', 'only threads on this section')
    .action(
      act(async (ctx, id: string, options: { status?: string; section?: string }) => {
        const res = await ctx.client.call<ThreadData<'threadList'>>('GET', `/articles/${seg(id)}/threads`, { query: { status: options.status, section: options.section } });
        const rows = res.envelope.data.threads;
        ctx.out.result(res, () =>
          rows.length
            ? table(
                ['ANCHOR', 'STATUS', 'SECTION', 'QUOTE', 'COMMENTS', 'LAST'],
                rows.map((t) => [t.anchor, t.detached ? `${t.status} (detached)` : t.status, t.section, clip(t.quote, 30), t.comments.length, clip(t.comments.at(-1)?.body ?? '', 40)]),
              )
            : '(no threads)',
        );
      }),
    );

  threads
    .command('show <article> <anchor>')
    .description('Show a thread with its comments')
    .addHelpText('after', examples(['quire threads show "$ART" 7b1e04']))
    .action(
      act(async (ctx, id: string, anchor: string) => {
        const res = await ctx.client.call<ThreadData<'threadOnly'>>('GET', `/articles/${seg(id)}/threads/${seg(anchor)}`);
        ctx.out.result(res, () => threadText(res.envelope.data.thread));
      }),
    );

  threads
    .command('create <article> <section> <quote>')
    .description('Open a thread on a quote of a section (the text as a reader sees it)')
    .addHelpText('after', examples(['quire threads create "$ART" 3f2a9c "the quoted words" --body "Source?"', 'quire threads create "$ART" 3f2a9c "red" --occurrence 2 --file comment.md']))
    .option('--body <markdown>', 'the comment')
    .option('--file <path>', 'read the comment from a file ("-": stdin)')
    .option('--occurrence <n>', 'which occurrence of the quote (default 1)')
    .action(
      act(async (ctx, id: string, section: string, quote: string, options: { body?: string; file?: string; occurrence?: string }) => {
        const body = await bodyOf(options, `quire threads create ${id} ${section} ...`);
        let occurrence: number | undefined;
        if (options.occurrence !== undefined) {
          occurrence = Number(options.occurrence);
          if (!Number.isInteger(occurrence) || occurrence < 1) throw usage('--occurrence must be a whole number from 1.', 'Pass --occurrence 2 for the second time the quote appears.');
        }
        const res = await ctx.client.call<ThreadData<'threadOnly'>>('POST', `/articles/${seg(id)}/threads`, { body: { section, quote, body, ...(occurrence ? { occurrence } : {}) } });
        ctx.out.result(res, () => threadText(res.envelope.data.thread));
      }),
    );

  threads
    .command('reply <article> <anchor>')
    .description('Reply in a thread (@skill starts that skill of your organization)')
    .addHelpText('after', examples(['quire threads reply "$ART" 7b1e04 --body "Done, see the new wording."', 'echo "@factcheck please" | quire threads reply "$ART" 7b1e04 --file -']))
    .option('--body <markdown>', 'the comment')
    .option('--file <path>', 'read the comment from a file ("-": stdin)')
    .action(
      act(async (ctx, id: string, anchor: string, options: { body?: string; file?: string }) => {
        const body = await bodyOf(options, `quire threads reply ${id} ${anchor}`);
        const res = await ctx.client.call<ThreadData<'commentOnly'>>('POST', `/articles/${seg(id)}/threads/${seg(anchor)}/comments`, { body: { body } });
        ctx.out.result(res, () => commentText(res.envelope.data.comment));
      }),
    );

  for (const [name, description] of [
    ['resolve', 'Resolve a thread'],
    ['reopen', 'Reopen a resolved thread'],
  ] as const) {
    threads
      .command(`${name} <article> <anchor>`)
      .description(description)
      .addHelpText('after', examples([`quire threads ${name} "$ART" 7b1e04`]))
      .action(
        act(async (ctx, id: string, anchor: string) => {
          const res = await ctx.client.call<ThreadData<'threadOnly'>>('POST', `/articles/${seg(id)}/threads/${seg(anchor)}/${name}`);
          ctx.out.result(res, () => `Thread ${res.envelope.data.thread.anchor} is ${res.envelope.data.thread.status}.`);
        }),
      );
  }
}
