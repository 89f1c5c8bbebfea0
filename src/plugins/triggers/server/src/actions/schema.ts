import { z } from 'zod';
import { parseInput } from '#kernel/parse';

/**
 * Parses `value` with `schema`, naming fields from `root` ("config.url", "payload.title") in
 * the 400 message.
 */
export function parseAt<S extends z.ZodType>(root: string, schema: S, value: unknown, nextAction?: string): z.infer<S> {
  return (parseInput(z.strictObject({ [root]: schema }), { [root]: value }, nextAction) as Record<string, unknown>)[root] as z.infer<S>;
}

/** A workflow config that takes no settings. */
export const noConfig = (config: unknown) =>
  parseAt('config', z.strictObject({}), config ?? {}, 'This action takes no config; pass {} or leave config out.');
