import type { Command } from 'commander';
import { seg } from './client';
import { contextOf, type Context } from './context';
import { CliError } from './errors';
import { clip } from './output';
import { sectionTitle, type Data } from './render';
import { speak } from './speech';

/** "sections add": a command's path below `quire`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * A command's action, given its context (server, key, output) and its arguments and options
 * as commander passes them. Errors propagate to main(), which prints them and sets the exit
 * status; on the way they are put in this command's words (speech.ts), and an ambiguous
 * anchor or id gets the list of what it matched.
 */
export function act<A extends unknown[]>(fn: (ctx: Context, ...args: A) => Promise<void>) {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const ctx = contextOf(command);
    try {
      await fn(ctx, ...(args.slice(0, -1) as A));
    } catch (error) {
      if (error instanceof CliError) {
        const path = commandPath(command);
        error.spoken = speak(error, { command: path, keySource: ctx.keySource, fromServer: error.body !== undefined });
        if (!ctx.out.json && error.nextAction === 'Use a longer anchor.') {
          const article = command.registeredArguments[0]?.name() === 'article' ? String(args[0]) : undefined;
          error.matches = await ambiguousMatches(ctx, error.message, article).catch(() => undefined);
        }
      }
      throw error;
    }
  };
}

/** At most this many lines of what an ambiguous anchor or id matched; then how many more. */
const MATCH_LINES = 20;
/** Pages of 100 articles read to find an ambiguous id's matches (10,000 articles). */
const MAX_PAGES = 100;

/** What an ambiguous anchor or article id matched, one line each ("3f2a9c  Method"). */
async function ambiguousMatches(ctx: Context, message: string, article: string | undefined): Promise<string[] | undefined> {
  const anchor = /The anchor "([^"]+)" matches more than one (section|note)/.exec(message);
  if (anchor && article) {
    const prefix = anchor[1].toLowerCase();
    if (anchor[2] === 'section') {
      const { outline } = (await ctx.client.call<Data<'outlineOnly'>>('GET', `/articles/${seg(article)}/outline`)).envelope.data;
      // An ambiguous prefix is shorter than the anchors it matches, so they start with it.
      return capped(outline.filter((s) => s.anchor.startsWith(prefix)).map((s) => `${s.anchor}  ${sectionTitle(s.title)}`));
    }
    const { notes } = (await ctx.client.call<Data<'notesOnly'>>('GET', `/articles/${seg(article)}/notes`)).envelope.data;
    return capped(notes.filter((n) => n.anchor.startsWith(prefix)).map((n) => `${n.anchor}  ${n.kind}: ${clip(n.title, 60)}`));
  }
  const id = /The id "([^"]+)" matches more than one of your articles/.exec(message);
  if (id) {
    const prefix = id[1].toLowerCase();
    // The list has no id filter: read every page (most recently updated first), keep the matches.
    const matched: Data<'articlePage'>['articles'] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const { articles, nextCursor } = (await ctx.client.call<Data<'articlePage'>>('GET', '/articles', { query: { limit: 100, cursor } })).envelope.data;
      matched.push(...articles.filter((a) => a.id.startsWith(prefix)));
      if (!nextCursor) break;
      cursor = nextCursor;
    }
    return capped(matched.sort((a, b) => (a.id < b.id ? -1 : 1)).map((a) => `${a.id}  ${clip(a.title, 60)}`));
  }
  return undefined;
}

/** The first MATCH_LINES lines, and a last one saying how many were left out. */
function capped(lines: string[]): string[] {
  if (lines.length <= MATCH_LINES) return lines;
  return [...lines.slice(0, MATCH_LINES), `(and ${lines.length - MATCH_LINES} more)`];
}

/** The "Examples:" block of a command's --help. */
export const examples = (lines: string[]) => `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
