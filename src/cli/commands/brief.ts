import type { Command } from 'commander';
import { act, examples } from '../action';
import { seg } from '../client';
import { readText } from '../io';
import { noteText, notesTable, type NoteEntry } from '../render';

export function registerBrief(program: Command) {
  const brief = program
    .command('brief')
    .description('Read and set the premise of an article\'s Brief (notes have their own command)')
    .addHelpText(
      'after',
      examples(['quire brief get <article>', 'quire brief set <article> "Anchors make edits cheap for agents."', 'quire brief set <article> --file premise.txt', 'quire brief clear <article>']),
    );

  brief
    .command('get <article>')
    .description('Print the premise and every note with its body')
    .action(
      act(async (ctx, id: string) => {
        const res = await ctx.client.call('GET', `/articles/${seg(id)}/brief`);
        const { premise, notes } = res.envelope.data as { premise: string | null; notes: NoteEntry[] };
        ctx.out.result(res, () =>
          ['Premise:', premise ?? '(none)', '', `Notes:`, notes.length ? notes.map(noteText).join('\n\n') : '(no notes)'].join('\n'),
        );
      }),
    );

  brief
    .command('set <article> [premise...]')
    .description('Set the premise: from the arguments, a file (--file), or stdin')
    .option('--file <file>', 'read the premise from a file ("-" for stdin)')
    .action(
      act(async (ctx, id: string, words: string[], options: { file?: string }) => {
        const premise = words.length ? words.join(' ') : (await readText(options.file, 'premise', true))!.trim();
        const res = await ctx.client.call('PATCH', `/articles/${seg(id)}/brief`, { body: { premise } });
        ctx.out.result(res, () => (res.envelope.data.premise === null ? 'Premise cleared.' : `Premise set:\n${res.envelope.data.premise}`));
      }),
    );

  brief
    .command('clear <article>')
    .description('Clear the premise')
    .action(
      act(async (ctx, id: string) => {
        const res = await ctx.client.call('PATCH', `/articles/${seg(id)}/brief`, { body: { premise: null } });
        ctx.out.result(res, () => 'Premise cleared.');
      }),
    );
}

const KINDS = 'source, decision, idea or question';

export function registerNotes(program: Command) {
  const notes = program
    .command('notes')
    .description(`List, add, read, edit and delete the typed notes of a Brief (${KINDS})`)
    .addHelpText(
      'after',
      examples([
        'quire notes list <article>',
        'quire notes add <article> --kind source --title "RFC 8628" --link https://www.rfc-editor.org/rfc/rfc8628',
        'quire notes add <article> --kind decision --title "Use anchors" --body-file why.md',
        'quire notes get <article> 9c1e2a',
        'quire notes edit <article> 9c1e2a --title "Anchors, not offsets" --clear-link',
        'quire notes delete <article> 9c1e2a',
      ]),
    );

  notes
    .command('list <article>')
    .description('List the notes (without bodies)')
    .action(
      act(async (ctx, id: string) => {
        const res = await ctx.client.call('GET', `/articles/${seg(id)}/notes`);
        ctx.out.result(res, () => notesTable(res.envelope.data.notes));
      }),
    );

  notes
    .command('add <article>')
    .description('Add a note')
    .requiredOption('--kind <kind>', KINDS)
    .requiredOption('--title <title>', 'a non-empty title')
    .option('--body <markdown>', 'the body, in Markdown')
    .option('--body-file <file>', 'read the body from a file ("-" for stdin)')
    .option('--link <url>', 'an absolute http(s) link (the note\'s url)')
    .action(
      act(async (ctx, id: string, options: { kind: string; title: string; body?: string; bodyFile?: string; link?: string }) => {
        const body: Record<string, unknown> = { kind: options.kind, title: options.title };
        const text = options.bodyFile !== undefined ? await readText(options.bodyFile, 'body', true) : options.body;
        if (text !== undefined) body.body = text;
        if (options.link !== undefined) body.url = options.link;
        const res = await ctx.client.call('POST', `/articles/${seg(id)}/notes`, { body });
        ctx.out.result(res, () => `Added note ${res.envelope.data.note.anchor}.\n${notesTable(res.envelope.data.notes)}`);
      }),
    );

  notes
    .command('get <article> <note>')
    .description('Print a note with its body')
    .action(
      act(async (ctx, id: string, anchor: string) => {
        const res = await ctx.client.call('GET', `/articles/${seg(id)}/notes/${seg(anchor)}`);
        ctx.out.result(res, () => noteText(res.envelope.data.note));
      }),
    );

  notes
    .command('edit <article> <note>')
    .description('Change a note: only the fields given change')
    .option('--kind <kind>', KINDS)
    .option('--title <title>', 'a non-empty title')
    .option('--body <markdown>', 'a new body')
    .option('--body-file <file>', 'read the new body from a file ("-" for stdin)')
    .option('--clear-body', 'remove the body')
    .option('--link <url>', 'a new link (the note\'s url)')
    .option('--clear-link', 'remove the link')
    .action(
      act(async (ctx, id: string, anchor: string, options: { kind?: string; title?: string; body?: string; bodyFile?: string; clearBody?: boolean; link?: string; clearLink?: boolean }) => {
        const body: Record<string, unknown> = {};
        if (options.kind !== undefined) body.kind = options.kind;
        if (options.title !== undefined) body.title = options.title;
        if (options.bodyFile !== undefined) body.body = await readText(options.bodyFile, 'body', true);
        else if (options.body !== undefined) body.body = options.body;
        if (options.clearBody) body.body = null;
        if (options.link !== undefined) body.url = options.link;
        if (options.clearLink) body.url = null;
        const res = await ctx.client.call('PATCH', `/articles/${seg(id)}/notes/${seg(anchor)}`, { body });
        ctx.out.result(res, () => `Updated note ${anchor}.\n\n${noteText(res.envelope.data.note)}`);
      }),
    );

  notes
    .command('delete <article> <note>')
    .description('Delete a note')
    .action(
      act(async (ctx, id: string, anchor: string) => {
        const res = await ctx.client.call('DELETE', `/articles/${seg(id)}/notes/${seg(anchor)}`);
        ctx.out.result(res, () => `Deleted note ${anchor}.\n${notesTable(res.envelope.data.notes)}`);
      }),
    );
}
