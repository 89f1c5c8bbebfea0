/**
 * A workflow's `inputSchema` (CONTRACT 21): a JSON Schema 2020-12 object, checked when it is
 * stored and compiled once per workflow revision to validate trigger inputs.
 *
 * Schemas come from API callers, so what would make compiling or validating slow is refused
 * when the schema is stored (limits below), and patterns run on RE2 (linear time, no
 * backtracking), so no trigger keeps the event loop busy.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import RE2 from 're2';

export const SCHEMA_LIMITS = {
  /** Bytes of the schema as JSON. */
  bytes: 64 * 1024,
  /** Nesting of objects and arrays in the schema document. */
  depth: 32,
  /** Keywords and values in the schema: what compiling walks (about 300 typed fields). */
  nodes: 1_000,
  /** Values of one `enum`. */
  enumValues: 256,
  /** `$ref`/`$dynamicRef` in one schema. */
  refs: 64,
  /** Characters of one `pattern` (or `patternProperties` key). */
  patternLength: 1_000,
  /** Patterns of one `patternProperties` (each input key is tested against each). */
  patternProperties: 16,
  /** `uniqueItems` compares items pairwise: only with `maxItems` at most this. */
  uniqueItems: 1_000,
} as const;

/** Problems listed in one refusal of an input. */
export const MAX_PROBLEMS = 10;
/** Inputs up to this size (JSON bytes) get every problem listed (up to 10); larger ones the first. */
export const LIST_ALL_UP_TO_BYTES = 64 * 1024;
/** Time one validation may take before it is given up (400): patterns and loops check it. */
export const VALIDATION_BUDGET_MS = 50;
/**
 * Turns (loop iterations, pattern tests) before the clock is read at all: a small input is never
 * refused because this process was descheduled on a busy machine, and costs one increment a turn.
 */
export const FREE_TURNS = 1_000;

export class SchemaProblem extends Error {}
/** A validation ran past its budget: the input is too large for this schema. */
export class ValidationTooSlow extends Error {}

/**
 * The current validation's deadline (validation is synchronous: one at a time per thread).
 * Compiled code reads it through a global symbol (it runs outside this module's scope).
 */
const BUDGET = Symbol.for('quire.triggers.inputSchemaBudget');
const budget = ((globalThis as Record<symbol, unknown>)[BUDGET] ??= { deadline: Infinity, turns: 0, free: FREE_TURNS, TooSlow: ValidationTooSlow }) as {
  deadline: number;
  turns: number;
  free: number;
  TooSlow: typeof ValidationTooSlow;
};

/**
 * RE2 (linear time, no backtracking) as ajv's regular-expression engine, with the budget
 * checked at each test: RE2 is linear on one string, but an input may hold many strings.
 */
function re2(pattern: string, flags: string) {
  const regex = new RE2(pattern, flags);
  return {
    test(value: string): boolean {
      if (++budget.turns > budget.free && performance.now() > budget.deadline) throw new budget.TooSlow();
      return regex.test(value);
    },
    // ajv shares compiled patterns by this key.
    toString: () => regex.toString(),
  };
}
re2.code = 'require("re2")';

/**
 * Every loop of the compiled validation checks the budget at each turn: whatever the keywords
 * (enum of objects, uniqueItems, many properties), the work per turn is bounded and the
 * turns are cut off at the deadline.
 */
const LOOP = /for\(([^()]*)\)\{/g;
const CHECK = `{const b=globalThis[Symbol.for("quire.triggers.inputSchemaBudget")];if(++b.turns>b.free&&performance.now()>b.deadline)throw new b.TooSlow();}`;
const withBudget = (code: string) => code.replace(LOOP, (_m, header: string) => `for(${header}){${CHECK}`);

function newAjv(allErrors: boolean) {
  const ajv = new Ajv2020({
    allErrors,
    // Unknown keywords are annotations in JSON Schema; types and required stay as written.
    strict: false,
    logger: false,
    // No optimisation passes over the generated code: compiling is what a first trigger may wait for.
    code: { regExp: re2 as never, process: withBudget, optimize: false },
  });
  // The fast formats: simple regular expressions, linear on any input.
  addFormats(ajv, { mode: 'fast' });
  return ajv;
}

// One for the first problem (it stops there), one to list them all (only for small inputs).
const engines: { first?: ReturnType<typeof newAjv>; all?: ReturnType<typeof newAjv> } = {};
const engine = (kind: 'first' | 'all') => (engines[kind] ??= newAjv(kind === 'all'));

/**
 * Walks the schema without recursion and refuses what would be slow to compile or validate.
 * Throws a SchemaProblem naming what is wrong, with its place in the schema.
 */
function checkLimits(schema: Record<string, unknown>): void {
  let nodes = 0;
  let refs = 0;
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: schema, path: '', depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > SCHEMA_LIMITS.depth) throw new SchemaProblem(`is nested more than ${SCHEMA_LIMITS.depth} levels deep (at ${path || '/'})`);
    if (Array.isArray(value)) {
      nodes += value.length;
      value.forEach((item, index) => stack.push({ value: item, path: `${path}/${index}`, depth: depth + 1 }));
    } else {
      const object = value as Record<string, unknown>;
      for (const [key, child] of Object.entries(object)) {
        nodes += 1;
        const at = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if ((key === '$ref' || key === '$dynamicRef') && typeof child === 'string') refs += 1;
        if (key === 'enum' && Array.isArray(child) && child.length > SCHEMA_LIMITS.enumValues) {
          throw new SchemaProblem(`has an enum of ${child.length} values at ${at}; at most ${SCHEMA_LIMITS.enumValues}`);
        }
        if (key === 'pattern' && typeof child === 'string') checkPattern(child, at);
        if (key === 'patternProperties' && child && typeof child === 'object' && !Array.isArray(child)) {
          const patterns = Object.keys(child);
          if (patterns.length > SCHEMA_LIMITS.patternProperties) {
            throw new SchemaProblem(`has ${patterns.length} patternProperties at ${at}; at most ${SCHEMA_LIMITS.patternProperties}`);
          }
          for (const pattern of patterns) checkPattern(pattern, `${at}/${pattern}`);
        }
        if (key === 'uniqueItems' && child === true) {
          const max = object.maxItems;
          if (typeof max !== 'number' || max > SCHEMA_LIMITS.uniqueItems) {
            throw new SchemaProblem(`uses uniqueItems at ${at} without maxItems of at most ${SCHEMA_LIMITS.uniqueItems} (it compares items pairwise)`);
          }
        }
        stack.push({ value: child, path: at, depth: depth + 1 });
      }
    }
    if (nodes > SCHEMA_LIMITS.nodes) throw new SchemaProblem(`has more than ${SCHEMA_LIMITS.nodes} keywords and values`);
    if (refs > SCHEMA_LIMITS.refs) throw new SchemaProblem(`has more than ${SCHEMA_LIMITS.refs} $ref`);
  }
}

function checkPattern(pattern: string, at: string): void {
  if (pattern.length > SCHEMA_LIMITS.patternLength) throw new SchemaProblem(`has a pattern longer than ${SCHEMA_LIMITS.patternLength} characters at ${at}`);
  try {
    new RE2(pattern, 'u');
  } catch (error) {
    // RE2 has no lookaround or backreferences (what makes patterns exponential).
    throw new SchemaProblem(`has a pattern at ${at} that is not supported (${(error as Error).message}); use a pattern without lookaround or backreferences`);
  }
}

/**
 * The schema checked and compiled, or a SchemaProblem: it must be a JSON object, at most
 * 64 KiB, within the limits above, and compile as JSON Schema 2020-12 (its meta-schema included).
 */
export function checkInputSchema(schema: unknown): InputValidator {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) throw new SchemaProblem('must be a JSON Schema object, like {"type": "object", "properties": {...}}');
  const bytes = Buffer.byteLength(JSON.stringify(schema), 'utf8');
  if (bytes > SCHEMA_LIMITS.bytes) throw new SchemaProblem(`is ${bytes} bytes; at most ${SCHEMA_LIMITS.bytes} (64 KiB)`);
  const object = schema as Record<string, unknown>;
  checkLimits(object);
  if (object.$schema !== undefined && object.$schema !== 'https://json-schema.org/draft/2020-12/schema') {
    throw new SchemaProblem('$schema must be https://json-schema.org/draft/2020-12/schema (or left out)');
  }
  // An $id would register the schema under that URI in the shared validator.
  if (object.$id !== undefined) throw new SchemaProblem('must not have an $id (refer to its parts with $ref "#/$defs/...")');
  return { first: compileWith('first', object), schema: object };
}

function compileWith(kind: 'first' | 'all', schema: Record<string, unknown>): ValidateFunction {
  const ajv = engine(kind);
  if (!ajv.validateSchema(schema)) {
    const first = ajv.errors?.[0];
    throw new SchemaProblem(`is not a valid JSON Schema: ${first ? `${first.instancePath || '/'} ${first.message}` : 'it does not match the 2020-12 meta-schema'}`);
  }
  try {
    return ajv.compile(schema);
  } catch (error) {
    throw new SchemaProblem(`does not compile: ${(error as Error).message}`);
  } finally {
    // Compiled functions are kept by the caller's cache (per workflow revision), not by ajv's.
    ajv.removeSchema(schema);
  }
}

/** A compiled input schema: the first problem at once, the full list compiled when first needed. */
export interface InputValidator {
  first: ValidateFunction;
  all?: ValidateFunction;
  schema: Record<string, unknown>;
}

/** Compiles a stored (checked) schema. */
export function compileInputSchema(schema: Record<string, unknown>): InputValidator {
  return { first: compileWith('first', schema), schema };
}

/**
 * Pays the validator's one-time setup (hundreds of ms for the first schema a process compiles,
 * against tens for the next ones) at boot, so that no trigger pays it on the event loop.
 */
export function warmCompiler(): void {
  const sample = { type: 'object', properties: { name: { type: 'string', pattern: '^[a-z]+$', maxLength: 64 }, count: { type: 'integer', minimum: 0 }, tags: { type: 'array', items: { enum: ['a', 'b'] }, maxItems: 4 } }, required: ['name'] };
  const validator = checkInputSchema(sample);
  problemsOf(validator, { name: 'warm', count: 1, tags: ['a'] }, 'input', 32);
  problemsOf(compileInputSchema(sample), { count: -1 }, 'input', 16);
}

/** `payload.items[0].name`: a JSON Pointer of the input, as a path under `base`. */
export function pathOf(base: string, pointer: string, property?: string): string {
  const parts = pointer ? pointer.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')) : [];
  if (property !== undefined) parts.push(property);
  let path = base;
  for (const part of parts) {
    if (/^\d+$/.test(part)) path += `[${part}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(part)) path += `.${part}`;
    else path += `[${JSON.stringify(part)}]`;
  }
  return path;
}

/** One ajv error in words, naming the input's path (a missing or extra property by its own path). */
function describe(error: ErrorObject, base: string): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${pathOf(base, error.instancePath, String(params.missingProperty))} is required`;
  if (error.keyword === 'additionalProperties') return `${pathOf(base, error.instancePath, String(params.additionalProperty))} is not allowed`;
  if (error.keyword === 'unevaluatedProperties') return `${pathOf(base, error.instancePath, String(params.unevaluatedProperty))} is not allowed`;
  return `${pathOf(base, error.instancePath)} ${error.message ?? 'is not valid'}`;
}

function run(validate: ValidateFunction, input: unknown): boolean {
  budget.deadline = performance.now() + VALIDATION_BUDGET_MS;
  budget.turns = 0;
  try {
    return validate(input) as boolean;
  } finally {
    budget.deadline = Infinity;
  }
}

/**
 * The problems of an input that does not validate (the first first, at most MAX_PROBLEMS),
 * or null when it validates. `bytes` is the input's size as JSON: past LIST_ALL_UP_TO_BYTES
 * only the first problem is looked for (listing all would walk the whole input). Throws
 * ValidationTooSlow when the validation runs past its budget.
 */
export function problemsOf(validator: InputValidator, input: unknown, base: string, bytes: number): string[] | null {
  if (run(validator.first, input)) return null;
  const problems = new Set<string>((validator.first.errors ?? []).slice(0, 1).map((e) => describe(e, base)));
  if (bytes <= LIST_ALL_UP_TO_BYTES) {
    validator.all ??= compileWith('all', validator.schema);
    run(validator.all, input);
    for (const error of validator.all.errors ?? []) {
      if (problems.size >= MAX_PROBLEMS) break;
      problems.add(describe(error, base));
    }
  }
  return [...problems];
}
