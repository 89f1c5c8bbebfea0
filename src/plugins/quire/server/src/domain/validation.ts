import { z } from 'zod';
import { invalidArgument } from './errors';

/** Where a zod issue points, as a dotted field path ("notes.0.kind"), or "body" for the whole input. */
function fieldOf(path: ReadonlyArray<PropertyKey>): string {
  return path.length ? path.map(String).join('.') : 'body';
}

function describe(issue: z.core.$ZodIssue): string {
  const field = fieldOf(issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${field} is required.`;
      return `${field} must be ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}.`;
    case 'unrecognized_keys':
      return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
    default:
      return `${field}: ${issue.message}`;
  }
}

/**
 * Parses input with a route's schema; the first problem becomes a 400 `invalid-argument`
 * whose message names the field.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, nextAction?: string): z.infer<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw invalidArgument(describe(result.error.issues[0]), nextAction);
}

/** JSON bodies of ours are objects; anything else (array, string, nothing) is refused up front. */
export const jsonObject = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape);
