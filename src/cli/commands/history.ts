import type { Command } from 'commander';
import { act, examples } from '../action';
import { seg } from '../client';
import { usage } from '../errors';
import { readText } from '../io';
import { clip, table, when } from '../output';
import { outlineTable, type Data, type Suggestible } from '../render';

const placement = (options: { after?: string; before?: string }) => {
  if (options.after !== undefined && options.before !== undefined) throw usage('--after and --before cannot be combined.', 'Pass one of them, or neither to append.');
  return { ...(options.after !== undefined ? { after: options.after } : {}), ...(options.before !== undefined ? { before: options.before } : {}) };
};

const byText = (by: { kind: string; name: string }) => `${by.name || '?'} (${by.kind})`;

type Suggestion = Data<'suggestionOnly'>['suggestion'];

function suggestionText(s: Suggestion): string {
  const lines = [
    `Suggestion ${s.anchor}: ${s.status}, by ${byText(s.by)} at ${when(s.createdAt)}`,
    ...(s.note ? [`Note: ${s.note}`] : []),
    ...(s.decidedBy ? [`Decided by ${byText(s.decidedBy)} at ${when(s.decidedAt)}`] : []),
    ...(s.reason ? [`Reason: ${s.reason}`] : []),
    '',
    ...s.results.map((r, i) => `ops[${i}] ${r.op}${r.replaced !== undefined ? ` (${r.replaced} replaced)` : ''}\n${r.diff ?? ''}`),
  ];
  return lines.join('\n');
}

/** The ops of `quire edit`: `{"ops": [...]}` or a bare list, from a file or stdin. */
function parseOps(text: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw usage('The ops are not valid JSON.', 'Pass a JSON list of operations, or {"ops": [...]}; see "quire edit --help".');
  }
  const ops = Array.isArray(parsed) ? parsed : (parsed as { ops?: unknown })?.ops;
  if (!Array.isArray(ops)) throw usage('No list of operations found.', 'Pass a JSON list of operations, or {"ops": [...]}.');
  return ops;
}

export function registerHistory(program: Command) {
  program
    .command('edit <article> [file]')
    .description('Apply section operations (JSON, from a file or stdin) all or nothing: insert, replace, move, delete, replaceText')
    .option('--dry-run', 'check them and print the diffs; write nothing')
    .option('--if-match <etag>', 'only if the outline is still at this ETag')
    .addHelpText(
      'after',
      examples([
        'quire edit "$ART" ops.json --dry-run     # see the diffs first',
        'quire edit "$ART" ops.json',
        `echo '[{"op":"replaceText","find":"teh","replace":"the","count":2}]' | quire edit "$ART" -`,
        `echo '[{"op":"insert","markdown":"## New"},{"op":"move","section":"$0","before":"3f2a9c"}]' | quire edit "$ART" -`,
      ]),
    )
    .action(
      act(async (ctx, id: string, file: string | undefined, options: { dryRun?: boolean; ifMatch?: string }) => {
        const ops = parseOps((await readText(file, { what: 'ops (JSON)', required: true, command: `quire edit ${id}` })) ?? '');
        const res = await ctx.client.call<Suggestible<'editsApplied'>>('POST', `/articles/${seg(id)}/edits`, {
          body: { ops, ...(options.dryRun ? { dryRun: true } : {}) },
          headers: { 'If-Match': options.ifMatch },
        });
        const data = res.envelope.data;
        if ('suggestion' in data) {
          const s = data.suggestion;
          return ctx.out.result(res, () => `Not applied: your key may only suggest. Suggestion ${s.anchor} is pending review.\n\n${suggestionText(s)}`);
        }
        const { results, outline } = data;
        ctx.out.result(res, () => {
          const summary = results.map((r, i) => `ops[${i}] ${r.op}${r.replaced !== undefined ? ` (${r.replaced} replaced)` : ''}${r.removed ? ` ${r.removed.join(', ')}` : ''}`);
          const diffs = options.dryRun ? results.map((r) => r.diff ?? '').filter(Boolean) : [];
          return [options.dryRun ? 'Dry run: nothing was written.' : `Applied ${results.length} operation(s).`, ...summary, ...diffs, outlineTable(outline)].join('\n');
        });
        if (!options.dryRun) ctx.out.info(`ETag: ${res.headers.get('etag')}`);
      }),
    );

  const revisions = program
    .command('revisions')
    .description('The versions of a section: list, show, restore')
    .addHelpText('after', examples(['quire revisions list "$ART" 3f2a9c', 'quire revisions show "$ART" 3f2a9c 2 > old.md', 'quire revisions restore "$ART" 3f2a9c 2']));

  revisions
    .command('list <article> <section>')
    .description('List a section\'s versions, newest first (the current one included)')
    .addHelpText('after', examples(['quire revisions list "$ART" 3f2a9c']))
    .action(
      act(async (ctx, id: string, anchor: string) => {
        const res = await ctx.client.call<Data<'revisionList'>>('GET', `/articles/${seg(id)}/sections/${seg(anchor)}/revisions`);
        ctx.out.result(res, () =>
          table(
            ['REV', 'WHEN', 'BY', 'WORDS', 'SOURCE', 'TITLE'],
            res.envelope.data.revisions.map((r) => [r.rev, when(r.createdAt), byText(r.by), r.words, r.source, clip(r.title, 50)]),
          ),
        );
      }),
    );

  revisions
    .command('show <article> <section> <rev>')
    .description('Print one version: its Markdown (or HTML for html sections, or with --html)')
    .addHelpText('after', examples(['quire revisions show "$ART" 3f2a9c 2 > old.md', 'quire revisions show "$ART" 3f2a9c 2 --html']))
    .option('--html', 'print its HTML')
    .action(
      act(async (ctx, id: string, anchor: string, rev: string, options: { html?: boolean }) => {
        const res = await ctx.client.call<Data<'revisionOnly'>>('GET', `/articles/${seg(id)}/sections/${seg(anchor)}/revisions/${seg(rev)}`);
        const r = res.envelope.data.revision;
        ctx.out.result(res, () => (options.html || r.markdown === null ? r.html : r.markdown));
      }),
    );

  revisions
    .command('restore <article> <section> <rev>')
    .description('Make a version current again (as a new revision)')
    .addHelpText('after', examples(['quire revisions restore "$ART" 3f2a9c 2']))
    .option('--if-match <etag>', 'only if the section is still at this ETag')
    .action(
      act(async (ctx, id: string, anchor: string, rev: string, options: { ifMatch?: string }) => {
        const res = await ctx.client.call<Data<'revisionRestored'>>('POST', `/articles/${seg(id)}/sections/${seg(anchor)}/revisions/${seg(rev)}/restore`, {
          headers: { 'If-Match': options.ifMatch },
        });
        ctx.out.result(res, () => `Restored revision ${rev} of ${anchor}.\n${outlineTable(res.envelope.data.outline)}`);
      }),
    );

  const trash = program
    .command('trash')
    .description('Deleted sections (kept 30 days): list, restore')
    .addHelpText('after', examples(['quire trash list "$ART"', 'quire trash restore "$ART" 3f2a9c --after 8e01d7']));

  trash
    .command('list <article>')
    .description('List the article\'s deleted sections, most recent first')
    .addHelpText('after', examples(['quire trash list "$ART"']))
    .action(
      act(async (ctx, id: string) => {
        const res = await ctx.client.call<Data<'trashList'>>('GET', `/articles/${seg(id)}/trash`);
        const rows = res.envelope.data.sections;
        ctx.out.result(res, () =>
          rows.length ? table(['ANCHOR', 'DELETED', 'BY', 'WORDS', 'TITLE'], rows.map((s) => [s.anchor, when(s.deletedAt), byText(s.by), s.words, clip(s.title, 50)])) : '(trash is empty)',
        );
      }),
    );

  trash
    .command('restore <article> <anchor>')
    .description('Put a deleted section back, with its id, content and history (at the end unless --after/--before)')
    .addHelpText('after', examples(['quire trash restore "$ART" 8e01d7', 'quire trash restore "$ART" 8e01d7 --before 3f2a9c']))
    .option('--after <anchor>', 'after this section')
    .option('--before <anchor>', 'before this section')
    .action(
      act(async (ctx, id: string, anchor: string, options: { after?: string; before?: string }) => {
        const res = await ctx.client.call<Data<'outlineOnly'>>('POST', `/articles/${seg(id)}/trash/${seg(anchor)}/restore`, { body: placement(options) });
        ctx.out.result(res, () => `Restored ${anchor}.\n${outlineTable(res.envelope.data.outline)}`);
      }),
    );

  const suggestions = program
    .command('suggestions')
    .description('Proposed edits waiting for review: list, show, accept, reject')
    .addHelpText(
      'after',
      examples(['quire suggestions list "$ART" --status pending', 'quire suggestions show "$ART" 5d0c1e', 'quire suggestions accept "$ART" 5d0c1e', 'quire suggestions reject "$ART" 5d0c1e --reason "Off topic"']),
    );

  suggestions
    .command('list <article>')
    .description('List the article\'s suggestions, newest first')
    .addHelpText('after', examples(['quire suggestions list "$ART"', 'quire suggestions list "$ART" --status pending']))
    .option('--status <status>', 'pending, accepted, rejected or stale')
    .action(
      act(async (ctx, id: string, options: { status?: string }) => {
        const res = await ctx.client.call<Data<'suggestionList'>>('GET', `/articles/${seg(id)}/suggestions`, { query: { status: options.status } });
        const rows = res.envelope.data.suggestions;
        ctx.out.result(res, () =>
          rows.length
            ? table(['ANCHOR', 'STATUS', 'BY', 'MADE', 'OPS', 'NOTE'], rows.map((s) => [s.anchor, s.status, byText(s.by), when(s.createdAt), s.ops.length, clip(s.note ?? '', 40)]))
            : '(no suggestions)',
        );
      }),
    );

  suggestions
    .command('show <article> <anchor>')
    .description('Show a suggestion with the diffs of its ops')
    .addHelpText('after', examples(['quire suggestions show "$ART" 5d0c1e']))
    .action(
      act(async (ctx, id: string, anchor: string) => {
        const res = await ctx.client.call<Data<'suggestionOnly'>>('GET', `/articles/${seg(id)}/suggestions/${seg(anchor)}`);
        ctx.out.result(res, () => suggestionText(res.envelope.data.suggestion));
      }),
    );

  suggestions
    .command('accept <article> <anchor>')
    .description('Apply a suggestion (412 and stale when a section it changes has changed since)')
    .addHelpText('after', examples(['quire suggestions accept "$ART" 5d0c1e']))
    .action(
      act(async (ctx, id: string, anchor: string) => {
        const res = await ctx.client.call<Data<'suggestionAccepted'>>('POST', `/articles/${seg(id)}/suggestions/${seg(anchor)}/accept`);
        ctx.out.result(res, () => `Accepted ${anchor}.\n${outlineTable(res.envelope.data.outline)}`);
      }),
    );

  suggestions
    .command('reject <article> <anchor>')
    .description('Reject a suggestion, or with --section only its changes to those sections (the rest stays pending)')
    .addHelpText('after', examples(['quire suggestions reject "$ART" 5d0c1e --reason "Off topic"', 'quire suggestions reject "$ART" 5d0c1e --section 9f2a --reason "Keep this one as it is"']))
    .option('--reason <text>', 'why (kept with it)')
    .option('--section <anchor>', 'reject only the changes to this section (repeat for several)', (value: string, list: string[] = []) => [...list, value])
    .action(
      act(async (ctx, id: string, anchor: string, options: { reason?: string; section?: string[] }) => {
        const reason = options.reason ?? ctx.reason;
        const res = await ctx.client.call<Data<'suggestionOnly'>>('POST', `/articles/${seg(id)}/suggestions/${seg(anchor)}/reject`, {
          body: { ...(reason !== undefined ? { reason } : {}), ...(options.section?.length ? { sections: options.section } : {}) },
        });
        const s = res.envelope.data.suggestion;
        ctx.out.result(res, () =>
          s.status === 'pending'
            ? `Rejected ${anchor} in ${options.section!.join(', ')}; the rest stays pending.`
            : `Rejected ${anchor}.${s.reason ? ` Reason: ${s.reason}` : ''}`,
        );
      }),
    );
}
