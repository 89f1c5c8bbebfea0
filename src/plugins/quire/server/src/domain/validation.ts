import { z } from 'zod';
import { invalidArgument } from './errors';

/** Where a zod issue points, as a dotted field path ("notes.0.kind"), or "body" for the whole input. */
function fieldOf(path: ReadonlyArray<PropertyKey>): string {
  return path.length ? path.map(String).join('.') : 'body';
}

function describe(issue: z.core.$ZodIssue): string {
  const field = fieldOf(issue.path);
  if (issue.input === undefined && issue.path.length && issue.code !== 'custom') return `${field} is required.`;
  // Messages of our schemas are phrased to follow the field name: "title must not be empty."
  if (/^(must|is|cannot) /.test(issue.message)) return `${field} ${issue.message.replace(/\.?$/, '.')}`;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${field} is required.`;
      return `${field} must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}.`;
    case 'unrecognized_keys':
      return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
    default:
      return `${field}: ${issue.message}`;
  }
}

/**
 * Parses input with a route's schema; the first problem becomes a 400 `invalid-argument`
 * whose message names the field. `nextAction` may depend on the field ("markdown", "body"...).
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  nextAction?: string | ((field: string) => string | undefined),
): z.infer<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const hint = typeof nextAction === 'function' ? nextAction(fieldOf(issue.path)) : nextAction;
  throw invalidArgument(describe(issue), hint);
}

/** JSON bodies of ours are objects; anything else (array, string, nothing) is refused up front. */
export const jsonObject = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape);
