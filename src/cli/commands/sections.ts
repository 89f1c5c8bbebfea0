import type { Command } from 'commander';
import { act, examples } from '../action';
import { seg } from '../client';
import { readText } from '../io';
import { outlineTable, type OutlineEntry } from '../render';

const where = (options: { after?: string; before?: string }) => {
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
        'quire sections add <article> intro.md                 # append',
        'quire sections add <article> part2.md --after 3f2a9c  # insert after a section',
        'echo "## Coda" | quire sections add <article> -',
        'quire sections get <article> 3f2a9c > section.md',
        'quire sections replace <article> 3f2a9c section.md',
        'quire sections move <article> 3f2a9c --before 8e01d7',
        'quire sections delete <article> 3f2a9c',
      ]),
    );

  sections
    .command('add <article> [file]')
    .description('Add Markdown (from a file, or stdin): it becomes one section per top-level heading')
    .option('--after <anchor>', 'insert after this section')
    .option('--before <anchor>', 'insert before this section')
    .action(
      act(async (ctx, id: string, file: string | undefined, options: { after?: string; before?: string }) => {
        const markdown = await readText(file, 'Markdown', true);
        const res = await ctx.client.call('POST', `/articles/${seg(id)}/sections`, { body: { markdown, ...where(options) } });
        const added = res.envelope.data.added as OutlineEntry[];
        ctx.out.result(res, () => `Added ${added.length === 1 ? '1 section' : `${added.length} sections`}:\n${outlineTable(added)}`);
      }),
    );

  sections
    .command('replace <article> <section> [file]')
    .description('Replace a section with Markdown (may split into several), or with HTML (--html)')
    .option('--html', 'the input is HTML (one html-source section, as the editor canvas writes)')
    .action(
      act(async (ctx, id: string, anchor: string, file: string | undefined, options: { html?: boolean }) => {
        const content = await readText(file, options.html ? 'HTML' : 'Markdown', true);
        const res = await ctx.client.call('PATCH', `/articles/${seg(id)}/sections/${seg(anchor)}`, {
          body: options.html ? { html: content } : { markdown: content },
        });
        ctx.out.result(res, () => `Replaced ${anchor} with:\n${outlineTable(res.envelope.data.updated)}`);
      }),
    );

  sections
    .command('get <article> <section>')
    .description('Print a section: its Markdown (default) or its rendered HTML (--html)')
    .option('--html', 'print the rendered, sanitised HTML')
    .action(
      act(async (ctx, id: string, anchor: string, options: { html?: boolean }) => {
        const res = await ctx.client.call('GET', `/articles/${seg(id)}/sections/${seg(anchor)}`);
        const section = res.envelope.data.section;
        if (!options.html && section.markdown === null && !ctx.out.json) {
          ctx.out.info('This section was edited as HTML and has no Markdown; printing its HTML.');
        }
        ctx.out.result(res, () => (options.html || section.markdown === null ? section.html : section.markdown));
      }),
    );

  sections
    .command('move <article> <section>')
    .description('Move a section after or before another one')
    .option('--after <anchor>', 'move after this section')
    .option('--before <anchor>', 'move before this section')
    .action(
      act(async (ctx, id: string, anchor: string, options: { after?: string; before?: string }) => {
        const res = await ctx.client.call('POST', `/articles/${seg(id)}/sections/${seg(anchor)}/move`, { body: where(options) });
        ctx.out.result(res, () => outlineTable(res.envelope.data.outline));
      }),
    );

  sections
    .command('delete <article> <section>')
    .description('Delete a section (the last one leaves an empty section behind)')
    .action(
      act(async (ctx, id: string, anchor: string) => {
        const res = await ctx.client.call('DELETE', `/articles/${seg(id)}/sections/${seg(anchor)}`);
        ctx.out.result(res, () => `Deleted ${anchor}.\n${outlineTable(res.envelope.data.outline)}`);
      }),
    );
}
