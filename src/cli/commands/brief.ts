import type { Command } from 'commander';
import { act, examples } from '../action';
import { seg } from '../client';
import { usage } from '../errors';
import { readText, refuseFileName } from '../io';
import { noteText, notesTable, type Data } from '../render';

export function registerBrief(program: Command) {
  const brief = program
    .command('brief')
    .description('Read and set the premise of an article\'s Brief (notes have their own command)')
    .addHelpText(
      'after',
      examples(['quire brief get "$ART"', 'quire brief set "$ART" "Anchors make edits cheap for agents."', 'quire brief set "$ART" --file premise.md', 'quire brief clear "$ART"']),
    );

  brief
    .command('get <article>')
    .description('Print the premise and every note with its body')
    .addHelpText('after', examples(['quire brief get "$ART"', 'quire brief get "$ART" --json']))
    .action(
      act(async (ctx, id: string) => {
        const res = await ctx.client.call<Data<'brief'>>('GET', `/articles/${seg(id)}/brief`);
        const { premise, notes } = res.envelope.data;
        ctx.out.result(res, () =>
          ['Premise:', premise ?? '(none)', '', `Notes:`, notes.length ? notes.map(noteText).join('\n\n') : '(no notes)'].join('\n'),
        );
      }),
    );

  brief
    .command('set <article> [premise...]')
    .description('Set the premise: the text itself, a file (--file), or stdin')
    .option('--file <file>', 'read the premise from a file ("-" for stdin)')
    .addHelpText(
      'after',
      examples([
        'quire brief set "$ART" "Anchors make edits cheap for agents."',
        'quire brief set "$ART" --file premise.md',
        'pandoc -t gfm premise.docx | quire brief set "$ART"',
      ]) + '\nThe words are the premise. A premise that is only the name of an existing file is refused:\npass --file to read the file (or pipe the words to --file - to keep them).\n',
    )
    .action(
      act(async (ctx, id: string, words: string[], options: { file?: string }) => {
        const missing = 'Pass the text, --file F, or pipe it. (quire brief clear removes the premise.)';
        if (words.length && options.file !== undefined) throw usage('Pass the premise as text or with --file, not both.', missing);
        const text = words.join(' ');
        if (words.length) refuseFileName(text, 'a premise', '--file');
        const premise = words.length ? text : (await readText(options.file, { what: 'premise', required: true, missing }))!.trim();
        if (!premise) throw usage(`No premise given${words.length ? '' : ' (the input was empty)'}.`, missing);
        const res = await ctx.client.call<Data<'premiseOnly'>>('PATCH', `/articles/${seg(id)}/brief`, { body: { premise } });
        ctx.out.result(res, () => (res.envelope.data.premise === null ? 'Premise cleared.' : `Premise set:\n${res.envelope.data.premise}`));
      }),
    );

  brief
    .command('clear <article>')
    .description('Clear the premise')
    .addHelpText('after', examples(['quire brief clear "$ART"']))
    .action(
      act(async (ctx, id: string) => {
        const res = await ctx.client.call<Data<'premiseOnly'>>('PATCH', `/articles/${seg(id)}/brief`, { body: { premise: null } });
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
        'quire notes list "$ART"',
        'quire notes add "$ART" --kind source --title "RFC 8628" --link https://www.rfc-editor.org/rfc/rfc8628',
        'quire notes add "$ART" --kind decision --title "Use anchors" --body-file why.md',
        'quire notes get "$ART" 9c1e2a',
        'quire notes edit "$ART" 9c1e2a --title "Anchors, not offsets" --clear-link',
        'quire notes delete "$ART" 9c1e2a',
      ]),
    );

  notes
    .command('list <article>')
    .description('List the notes (without bodies)')
    .addHelpText('after', examples(['quire notes list "$ART"']))
    .action(
      act(async (ctx, id: string) => {
        const res = await ctx.client.call<Data<'notesOnly'>>('GET', `/articles/${seg(id)}/notes`);
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
    .addHelpText(
      'after',
      examples([
        'quire notes add "$ART" --kind source --title "RFC 8628" --link https://www.rfc-editor.org/rfc/rfc8628',
        'quire notes add "$ART" --kind idea --title "Shorter ids" --body "Prefixes, like anchors."',
        'quire notes add "$ART" --kind decision --title "Use anchors" --body-file why.md',
      ]),
    )
    .action(
      act(async (ctx, id: string, options: { kind: string; title: string; body?: string; bodyFile?: string; link?: string }) => {
        const body: Record<string, unknown> = { kind: options.kind, title: options.title };
        const text = noteBody(options) ?? (options.bodyFile !== undefined ? await readText(options.bodyFile, { what: 'body', required: true }) : undefined);
        if (text !== undefined) body.body = text;
        if (options.link !== undefined) body.url = options.link;
        const res = await ctx.client.call<Data<'noteWithMap'>>('POST', `/articles/${seg(id)}/notes`, { body });
        ctx.out.result(res, () => `Added note ${res.envelope.data.note.anchor}.\n${notesTable(res.envelope.data.notes)}`);
      }),
    );

  notes
    .command('get <article> <note>')
    .description('Print a note with its body')
    .addHelpText('after', examples(['quire notes get "$ART" 9c1e2a']))
    .action(
      act(async (ctx, id: string, anchor: string) => {
        const res = await ctx.client.call<Data<'noteOnly'>>('GET', `/articles/${seg(id)}/notes/${seg(anchor)}`);
        // --json: the envelope with the note's ETag beside it (what --if-match takes back).
        if (ctx.out.json) return ctx.out.out(JSON.stringify({ ...JSON.parse(res.text), etag: res.headers.get('etag') }));
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
    .option('--if-match <etag>', 'only if the note is still at this ETag (quire notes get --json | jq -r .etag)')
    .addHelpText(
      'after',
      examples([
        'quire notes edit "$ART" 9c1e2a --title "Anchors, not offsets" --clear-link',
        'quire notes edit "$ART" 9c1e2a --body-file why.md',
        'quire notes edit "$ART" 9c1e2a --kind decision --clear-body',
      ]),
    )
    .action(
      act(async (ctx, id: string, anchor: string, options: { kind?: string; title?: string; body?: string; bodyFile?: string; clearBody?: boolean; link?: string; clearLink?: boolean; ifMatch?: string }) => {
        if (options.clearBody && (options.body !== undefined || options.bodyFile !== undefined)) throw usage('--clear-body cannot be combined with --body or --body-file.');
        if (options.clearLink && options.link !== undefined) throw usage('--clear-link cannot be combined with --link.');
        const body: Record<string, unknown> = {};
        if (options.kind !== undefined) body.kind = options.kind;
        if (options.title !== undefined) body.title = options.title;
        const text = noteBody(options) ?? (options.bodyFile !== undefined ? await readText(options.bodyFile, { what: 'body', required: true }) : undefined);
        if (text !== undefined) body.body = text;
        if (options.clearBody) body.body = null;
        if (options.link !== undefined) body.url = options.link;
        if (options.clearLink) body.url = null;
        if (!Object.keys(body).length) {
          throw usage('Nothing to change.', 'Pass at least one of --kind, --title, --body, --body-file, --clear-body, --link, --clear-link.');
        }
        const res = await ctx.client.call<Data<'noteWithMap'>>('PATCH', `/articles/${seg(id)}/notes/${seg(anchor)}`, { body, headers: { 'If-Match': options.ifMatch } });
        ctx.out.result(res, () => `Updated note ${anchor}.\n\n${noteText(res.envelope.data.note)}`);
      }),
    );

  notes
    .command('delete <article> <note>')
    .description('Delete a note')
    .option('--if-match <etag>', 'only if the note is still at this ETag')
    .addHelpText('after', examples(['quire notes delete "$ART" 9c1e2a']))
    .action(
      act(async (ctx, id: string, anchor: string, options: { ifMatch?: string }) => {
        const res = await ctx.client.call<Data<'notesOnly'>>('DELETE', `/articles/${seg(id)}/notes/${seg(anchor)}`, { headers: { 'If-Match': options.ifMatch } });
        ctx.out.result(res, () => `Deleted note ${anchor}.\n${notesTable(res.envelope.data.notes)}`);
      }),
    );
}

/** --body (the text itself, checked against the content rule) unless --body-file is given. */
function noteBody(options: { body?: string; bodyFile?: string }): string | undefined {
  if (options.body !== undefined && options.bodyFile !== undefined) throw usage('--body and --body-file cannot be combined.');
  if (options.body !== undefined) refuseFileName(options.body, 'a note body', '--body-file');
  return options.body;
}
