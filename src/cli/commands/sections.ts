import type { Command } from 'commander';
import { act, examples } from '../action';
import { seg, type CallResult } from '../client';
import type { Context } from '../context';
import { usage } from '../errors';
import { readText } from '../io';
import { outlineTable, type Data, type Suggestible } from '../render';

/** A suggest key's write is not applied: the server answers 202 with the suggestion it made. */
function suggested(ctx: Context, res: CallResult, s: Data<'suggestionOnly'>['suggestion']) {
  ctx.out.result(res, () => `Not applied: your key may only suggest. Suggestion ${s.anchor} is pending review (quire suggestions show <article> ${s.anchor}).`);
}

const where = (options: { after?: string; before?: string }) => {
  if (options.after !== undefined && options.before !== undefined) throw usage('--after and --before cannot be combined.', 'Pass one of them.');
  const body: Record<string, string> = {};
  if (options.after !== undefined) body.after = options.after;
  if (options.before !== undefined) body.before = options.before;
  return body;
};

export function registerSections(program: Command) {
  const sections = program
    .command('sections')
    .description('Add, replace, get, move and delete the sections of an article (addressed by anchor)')
    .addHelpText(
      'after',
      examples([
        'quire sections add "$ART" intro.md                 # append',
        'quire sections add "$ART" part2.md --after 3f2a9c  # insert after a section',
        'echo "## Coda" | quire sections add "$ART" -',
        'quire sections get "$ART" 3f2a9c > section.md',
        'quire sections replace "$ART" 3f2a9c section.md',
        'quire sections move "$ART" 3f2a9c --before 8e01d7',
        'quire sections delete "$ART" 3f2a9c',
        'quire sections get "$ART" 3f2a9c --json | jq -r .etag   # the ETag to send back',
        'quire sections replace "$ART" 3f2a9c section.md --if-match \'"s.…"\'',
      ]),
    );

  sections
    .command('add <article> [file]')
    .description('Add Markdown (from a file, or stdin): it becomes one section per top-level heading')
    .option('--after <anchor>', 'insert after this section')
    .option('--before <anchor>', 'insert before this section')
    .option('--if-match <etag>', 'only if the outline is still at this ETag (else 412: re-read and retry)')
    .addHelpText(
      'after',
      examples([
        'quire sections add "$ART" intro.md                  # append a file',
        'quire sections add "$ART" part2.md --after 3f2a9c   # insert after a section',
        "printf '## Coda\\n\\nThe end.\\n' | quire sections add \"$ART\" -",
        "URL=$(quire upload figure.png) && printf '![Figure](%s)\\n' \"$URL\" | quire sections add \"$ART\" -",
      ]),
    )
    .action(
      act(async (ctx, id: string, file: string | undefined, options: { after?: string; before?: string; ifMatch?: string }) => {
        const markdown = await readText(file, { what: 'Markdown', required: true, command: `quire sections add ${id}` });
        const res = await ctx.client.call<Suggestible<'sectionsAdded'>>('POST', `/articles/${seg(id)}/sections`, {
          body: { markdown, ...where(options) },
          headers: { 'If-Match': options.ifMatch },
        });
        const data = res.envelope.data;
        if ('suggestion' in data) return suggested(ctx, res, data.suggestion);
        const added = data.added;
        ctx.out.result(res, () => `Added ${added.length === 1 ? '1 section' : `${added.length} sections`}:\n${outlineTable(added)}`);
      }),
    );

  sections
    .command('replace <article> <section> [file]')
    .description('Replace a section with Markdown (may split into several), or with HTML (--html)')
    .option('--html', 'the input is HTML (one html-source section, as the editor canvas writes)')
    .option('--if-match <etag>', 'only if the section is still at this ETag (else 412: re-read, merge, retry)')
    .addHelpText(
      'after',
      examples([
        'quire sections get "$ART" 3f2a9c > section.md && quire sections replace "$ART" 3f2a9c section.md',
        "printf '## Method\\n\\nStep one.\\n\\n## Results\\n\\nIt works.\\n' | quire sections replace \"$ART\" 3f2a9c -",
        'quire sections replace "$ART" 3f2a9c --html section.html',
      ]),
    )
    .action(
      act(async (ctx, id: string, anchor: string, file: string | undefined, options: { html?: boolean; ifMatch?: string }) => {
        const what = options.html ? 'HTML' : 'Markdown';
        const content = await readText(file, { what, required: true, command: `quire sections replace ${id} ${anchor}${options.html ? ' --html' : ''}` });
        const res = await ctx.client.call<Suggestible<'sectionReplaced'>>('PATCH', `/articles/${seg(id)}/sections/${seg(anchor)}`, {
          body: options.html ? { html: content } : { markdown: content },
          headers: { 'If-Match': options.ifMatch },
        });
        const data = res.envelope.data;
        if ('suggestion' in data) return suggested(ctx, res, data.suggestion);
        ctx.out.info(`ETag: ${res.headers.get('etag')}`);
        ctx.out.result(res, () => `Replaced ${anchor} with:\n${outlineTable(data.updated)}`);
      }),
    );

  sections
    .command('get <article> <section>')
    .description('Print a section: its Markdown (default), or its rendered HTML (--html); a section edited in the canvas prints its HTML unless --as markdown')
    .option('--html', 'print the rendered, sanitised HTML')
    .option('--as <format>', 'markdown: for a section edited in the canvas (HTML canonical), a Markdown rendering of its HTML')
    .addHelpText(
      'after',
      examples([
        'quire sections get "$ART" 3f2a9c',
        'quire sections get "$ART" 3f2a9c --html > section.html',
        'quire sections get "$ART" 3f2a9c --as markdown > section.md   # also for a section edited in the canvas',
      ]),
    )
    .action(
      act(async (ctx, id: string, anchor: string, options: { html?: boolean; as?: string }) => {
        if (options.as !== undefined && options.html) throw usage('--as and --html cannot be combined.', 'Pass --html for the HTML, or --as markdown for Markdown.');
        const res = await ctx.client.call<Data<'sectionOnly'>>('GET', `/articles/${seg(id)}/sections/${seg(anchor)}`, { query: { as: options.as } });
        const section = res.envelope.data.section;
        const etag = res.headers.get('etag');
        // --json: the envelope with the section's ETag beside it (what --if-match takes back).
        if (ctx.out.json) return ctx.out.out(JSON.stringify({ ...JSON.parse(res.text), etag }));
        ctx.out.info(`ETag: ${etag}`);
        if (options.as !== undefined && section.source === 'html') {
          ctx.out.info('This section was edited as HTML: printing a Markdown rendering of it (replacing it with Markdown makes it a Markdown section again).');
        } else if (!options.html && section.markdown === null) {
          ctx.out.info('This section was edited as HTML and has no Markdown; printing its HTML (--as markdown prints a Markdown rendering).');
        }
        ctx.out.result(res, () => (options.html || section.markdown === null ? section.html : section.markdown));
      }),
    );

  sections
    .command('move <article> <section>')
    .description('Move a section after or before another one')
    .option('--after <anchor>', 'move after this section')
    .option('--before <anchor>', 'move before this section')
    .option('--if-match <etag>', 'only if the section is still at this ETag')
    .addHelpText('after', examples(['quire sections move "$ART" 3f2a9c --before 8e01d7', 'quire sections move "$ART" 3f2a9c --after 8e01d7']))
    .action(
      act(async (ctx, id: string, anchor: string, options: { after?: string; before?: string; ifMatch?: string }) => {
        if (options.after === undefined && options.before === undefined) throw usage('Say where to move the section.', 'Pass --after <anchor> or --before <anchor>.');
        const res = await ctx.client.call<Suggestible<'outlineOnly'>>('POST', `/articles/${seg(id)}/sections/${seg(anchor)}/move`, { body: where(options), headers: { 'If-Match': options.ifMatch } });
        const data = res.envelope.data;
        if ('suggestion' in data) return suggested(ctx, res, data.suggestion);
        ctx.out.result(res, () => outlineTable(data.outline));
      }),
    );

  sections
    .command('delete <article> <section>')
    .description('Delete a section (to the article\'s trash for 30 days; the last one leaves an empty section behind)')
    .option('--if-match <etag>', 'only if the section is still at this ETag')
    .addHelpText('after', examples(['quire sections delete "$ART" 3f2a9c', 'quire sections delete "$ART" 3f2a9c --if-match "$ETAG"']))
    .action(
      act(async (ctx, id: string, anchor: string, options: { ifMatch?: string }) => {
        const res = await ctx.client.call<Suggestible<'outlineOnly'>>('DELETE', `/articles/${seg(id)}/sections/${seg(anchor)}`, { headers: { 'If-Match': options.ifMatch } });
        const data = res.envelope.data;
        if ('suggestion' in data) return suggested(ctx, res, data.suggestion);
        ctx.out.result(res, () => `Deleted ${anchor}.\n${outlineTable(data.outline)}`);
      }),
    );
}
