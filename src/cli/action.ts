import type { Command } from 'commander';
import { contextOf, type Context } from './context';

/**
 * A command's action, given its context (server, key, output) and its arguments and options
 * as commander passes them. Errors propagate to main(), which prints them and sets the exit status.
 */
export function act<A extends unknown[]>(fn: (ctx: Context, ...args: A) => Promise<void>) {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    await fn(contextOf(command), ...(args.slice(0, -1) as A));
  };
}

/** The "Examples:" block of a command's --help. */
export const examples = (lines: string[]) => `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
