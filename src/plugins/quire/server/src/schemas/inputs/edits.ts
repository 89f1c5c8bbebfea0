/** Input schemas of atomic edits (CONTRACT section 11); suggestions take the same ops. */
import { z } from 'zod';
import { describeIssue, rule, withHint } from '#kernel/parse';
import { reasonField } from '../change-sets';
import { htmlText, isTooLong, LIMITS, markdownField, REASON_NEXT, splitNext } from './shared';

export const MAX_EDIT_OPS = 100;
export const EDIT_OPS = ['insert', 'replace', 'move', 'delete', 'replaceText'] as const;
export type EditOpName = (typeof EDIT_OPS)[number];

/** An anchor of a section, or `$N` / `$N.K`: the sections operation N of the same request produced. */
const sectionRef = z.string().min(1, 'must not be empty').describe('A section anchor, or $N / $N.K: the (K-th) section operation N produced.');
const ifMatchField = z.string().min(1, 'must not be empty').describe('The section\'s ETag: the op fails with 412 when it changed.');
const placementRef = sectionRef.nullish().transform((v) => v ?? undefined);

const insertOp = z
  .strictObject({ op: z.literal('insert'), markdown: markdownField, after: placementRef, before: placementRef })
  .refine((v) => v.after === undefined || v.before === undefined, 'after and before were both given; pass at most one');
const replaceOp = z
  .strictObject({
    op: z.literal('replace'),
    section: sectionRef,
    markdown: markdownField.optional(),
    html: htmlText.optional(),
    ifMatch: ifMatchField.optional(),
  })
  .refine((v) => v.markdown === undefined || v.html === undefined, 'markdown and html were both given; pass one of them')
  .refine((v) => v.markdown !== undefined || v.html !== undefined, 'markdown or html is required');
const moveOp = z
  .strictObject({ op: z.literal('move'), section: sectionRef, after: placementRef, before: placementRef })
  .refine((v) => v.after === undefined || v.before === undefined, 'after and before were both given; pass exactly one')
  .refine((v) => v.after !== undefined || v.before !== undefined, 'after or before is required');
const deleteOp = z.strictObject({ op: z.literal('delete'), section: sectionRef, ifMatch: ifMatchField.optional() });
const replaceTextOp = z.strictObject({
  op: z.literal('replaceText'),
  find: z.string().min(1, 'must not be empty').max(LIMITS.markdown, 'is too long').describe('The literal text to find (case-sensitive).'),
  replace: z.string().max(LIMITS.markdown, 'is too long').describe('What replaces every occurrence ("" deletes them).'),
  section: sectionRef.optional().describe('One section; left out, every Markdown section.'),
  count: z.number().int('must be an integer').min(1, 'must be at least 1').max(100_000, 'must be at most 100000').optional().describe('How many occurrences there must be (default 1).'),
  ifMatch: ifMatchField.optional(),
});

const OP_SCHEMAS = { insert: insertOp, replace: replaceOp, move: moveOp, delete: deleteOp, replaceText: replaceTextOp } as const;
export type EditOp = { [K in EditOpName]: z.output<(typeof OP_SCHEMAS)[K]> }[EditOpName];

const OP_FIELDS: Record<EditOpName, string> = {
  insert: 'An insert takes "markdown", and "after" or "before" (or neither, to append).',
  replace: 'A replace takes "section" and one of "markdown" or "html", and optionally "ifMatch".',
  move: 'A move takes "section" and exactly one of "after" or "before".',
  delete: 'A delete takes "section", and optionally "ifMatch".',
  replaceText: 'A replaceText takes "find", "replace", and optionally "section", "count" and "ifMatch".',
};

const withoutDialect = ({ $schema: _dialect, ...schema }: Record<string, unknown>) => schema;

/** Each op checked by the schema of its kind, so that a problem names `ops[N] (op)` and its field. */
export const opsField = z
  .array(z.unknown())
  .min(1, 'must hold at least one operation')
  .max(MAX_EDIT_OPS, `must hold at most ${MAX_EDIT_OPS} operations`)
  .superRefine((ops, issues) => {
    for (const [i, raw] of ops.entries()) {
      const name = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as { op?: unknown }).op : undefined;
      if (!EDIT_OPS.includes(name as EditOpName)) {
        const got = name === undefined ? 'no "op"' : `op ${JSON.stringify(name)}`;
        issues.addIssue({ code: 'custom', ...rule(`ops[${i}]: ${got} is not an operation.`, `Give each operation an "op": one of ${EDIT_OPS.join(', ')}.`) });
        return;
      }
      const result = OP_SCHEMAS[name as EditOpName].safeParse(raw, { reportInput: true });
      if (!result.success) {
        const issue = result.error.issues[0];
        issues.addIssue({ code: 'custom', ...rule(`ops[${i}] (${name}): ${describeIssue(issue)}`, isTooLong(issue) ? splitNext() : OP_FIELDS[name as EditOpName]) });
        return;
      }
    }
  })
  .transform((ops) => ops.map((raw) => OP_SCHEMAS[(raw as { op: EditOpName }).op].parse(raw) as EditOp))
  .meta({
    description: `1 to ${MAX_EDIT_OPS} operations, applied in order, all or nothing.`,
    // Subschemas of the document they are put in: without a `$schema` of their own.
    items: { oneOf: Object.values(OP_SCHEMAS).map((schema) => withoutDialect(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }))) },
  });

export const editsInput = withHint(
  z.strictObject({
    ops: opsField,
    dryRun: z.boolean().optional().describe('true: check and answer with diffs, write nothing.'),
    ifMatch: z.string().min(1, 'must not be empty').optional().describe('The outline\'s ETag (as the If-Match header).'),
    reason: reasonField,
  }),
  (field) => (field === 'reason' ? REASON_NEXT : field === 'ops' ? `Pass "ops": a list of 1 to ${MAX_EDIT_OPS} operations.` : field === 'dryRun' ? 'Pass dryRun as true or false.' : 'Pass ifMatch as the outline\'s ETag.'),
);
