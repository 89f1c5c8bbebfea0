import { z } from 'zod';
import { invalidArgument } from './errors';

/**
 * Input parsing: a route's zod schema turns a request's query or body into typed input, and
 * its first problem into a 400 `invalid-argument` whose message names the field and whose
 * nextAction says what to send instead.
 *
 * Where a nextAction comes from, first match wins:
 * 1. the issue itself: a refinement that carries one, `refine(check, rule(message, nextAction))`
 *    (cross-field rules: "after and before were both given"...);
 * 2. the hint attached to the schema with `withHint(schema, hint)`: one text, or a function of
 *    the field that failed and of the route's path parameters;
 * 3. the `nextAction` argument of `parseInput`.
 */

/** A nextAction for a failed field: the field's dotted path ("markdown", "notes.0.kind", or "body"). */
export type Hint = string | ((field: string, context: HintContext) => string | undefined);

export interface HintContext {
  /** The route's path parameters ({ id: '...' }), for hints that name a route. */
  params: Readonly<Record<string, string>>;
  /** The problem itself, for hints that depend on it (a text over its size limit needs splitting, not rewording). */
  issue?: z.core.$ZodIssue;
}

const hints = new WeakMap<z.ZodType, Hint>();

/** Attaches the nextAction hint of a query or body schema (apply it last: zod methods return new schemas). */
export function withHint<S extends z.ZodType>(schema: S, hint: Hint): S {
  hints.set(schema, hint);
  return schema;
}

/**
 * The options of a refinement whose failure is a whole-input rule with its own message and
 * nextAction: `schema.refine((v) => ..., rule('after and before were both given.', 'Pass one.'))`.
 * The message is shown as it is (not prefixed by a field name).
 */
export const rule = (message: string, nextAction: string) => ({ message, params: { nextAction, verbatim: true } });

/** Where a zod issue points, as a dotted field path ("notes.0.kind"), or "body" for the whole input. */
function fieldOf(path: ReadonlyArray<PropertyKey>): string {
  return path.length ? path.map(String).join('.') : 'body';
}

type IssueParams = { nextAction?: string; verbatim?: boolean } | undefined;
const paramsOf = (issue: z.core.$ZodIssue): IssueParams => (issue.code === 'custom' ? (issue.params as IssueParams) : undefined);

/** An issue as the sentence a 400 says ("title must not be empty."). */
export function describeIssue(issue: z.core.$ZodIssue): string {
  if (paramsOf(issue)?.verbatim) return issue.message;
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
  nextAction?: Hint,
  context: HintContext = { params: {} },
): z.infer<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = fieldOf(issue.path);
  const hint = paramsOf(issue)?.nextAction ?? hints.get(schema) ?? nextAction;
  throw invalidArgument(describeIssue(issue), typeof hint === 'function' ? hint(field, { ...context, issue }) : hint);
}

/** The nextAction of a path parameter its schema refuses (over HTTP and in-process alike). */
export const PATH_PARAM_NEXT = 'Pass ids and anchors exactly as the API returned them.';

/** JSON bodies of ours are objects; anything else (array, string, nothing) is refused up front. */
export const jsonObject = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape);
