/**
 * From zod to JSON Schema for the API description: zod 4's `z.toJSONSchema` (JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1); records named with `.meta({ id })` become components,
 * and the failure envelope of each set of error codes is one component.
 */
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** The JSON Schema of a zod schema, its named records hoisted into the components. */
export class SchemaWriter {
  readonly components: Record<string, JsonSchema> = {};

  write(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$schema;
    delete json.$defs;
    for (const [name, def] of Object.entries(defs)) {
      const rewritten = rewriteRefs(def) as JsonSchema;
      const existing = this.components[name];
      if (existing && JSON.stringify(existing) !== JSON.stringify(rewritten)) {
        throw new Error(`Two different schemas are named "${name}" (meta id); give one another name.`);
      }
      this.components[name] = rewritten;
    }
    return rewriteRefs(json) as JsonSchema;
  }

  /** The failure envelope with these codes: one component per set of codes ("Failure-not-found"). */
  failure(codes: readonly string[]): JsonSchema {
    const name = `Failure-${codes.join('-or-')}`;
    if (!this.components[name]) this.components[name] = this.write(failureSchema(codes as [string, ...string[]]), 'output');
    return { $ref: `#/components/schemas/${name}` };
  }
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof child === 'string' ? child.replace(/^#\/\$defs\//, '#/components/schemas/') : rewriteRefs(child);
  }
  return out;
}

/** The failure envelope with the codes one status can carry. */
export const failureSchema = (codes: readonly [string, ...string[]]) =>
  z.strictObject({
    success: z.literal(false),
    error: z.strictObject({
      code: z.enum(codes),
      message: z.string().describe('What went wrong, for a person or an agent.'),
      nextAction: z.string().optional().describe('What to do next.'),
    }),
  });


export const success = (data: z.ZodType) => z.strictObject({ success: z.literal(true), data });
