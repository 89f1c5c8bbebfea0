/**
 * Configuration from environment variables, read and checked once at boot.
 *
 * A config module (each plugin's `server/src/config.ts`, the app's `config/*.ts`) declares its
 * settings with the helpers below and reads them with `readSettings`:
 *
 *   export const settings = {
 *     rateLimit: int("POSTS_RATE_LIMIT", { min: 1, max: 1_000_000_000, default: 30 }),
 *     queue: text("JOB_QUEUE", { default: "jobs" }),
 *   };
 *   const config = readSettings(settings, env);   // { rateLimit: number, queue: string }
 *
 * An unset or empty variable takes its default (a setting without one is required). A bad
 * value throws a ConfigError whose whole text is one line naming the variable, the value and
 * what is accepted:  POSTS_RATE_LIMIT="abc" is not valid: expected a whole number from 1 to 1000000000
 * Nothing is silently replaced by a default.
 */
import { z } from 'zod';
import { parseHostExemptions } from './address-policy';

/**
 * A bad configuration value. It has no stack: where it ends the boot, Strapi's logger prints
 * the message alone, one line (and `npm start` does the same for errors of config/*.ts).
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
    this.stack = '';
  }
}

/** Where raw values come from: an environment object, or Strapi's `env` function of config files. */
export type EnvSource = Record<string, string | undefined> | ((name: string) => unknown);

export interface Setting<T> {
  /** The environment variable. */
  readonly variable: string;
  /** What an accepted value is, completing "expected ...". */
  readonly expected: string;
  /** The value when the variable is unset or empty; `undefined` makes the setting required... */
  readonly default: T | undefined;
  /** ...unless it is optional: then an unset variable gives `undefined`. */
  readonly optional: boolean;
  /** From the trimmed raw string to the value. */
  readonly schema: z.ZodType<T>;
}

export type Settings = Record<string, Setting<unknown>>;

/** The typed configuration a settings declaration reads into. */
export type ConfigOf<S extends Settings> = { readonly [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

interface Options<T> {
  default?: T;
  /** Unset means `undefined` rather than an error (for settings whose absence means "off"). */
  optional?: boolean;
}

function setting<T>(variable: string, expected: string, schema: z.ZodType<T>, options: Options<T> = {}): Setting<T> {
  return { variable, expected, schema, default: options.default, optional: options.optional ?? false };
}

const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const range = (min: number, max: number) => `from ${min} to ${max}`;

/** A whole number in [min, max]. */
export const int = (variable: string, options: Options<number> & { min: number; max: number }) =>
  setting(variable, `a whole number ${range(options.min, options.max)}`, wholeNumber(options.min, options.max), options);

/** A duration in whole milliseconds, in [min, max]. */
export const duration = (variable: string, options: Options<number> & { min: number; max: number }) =>
  setting(variable, `a duration in milliseconds ${range(options.min, options.max)}`, wholeNumber(options.min, options.max), options);

/** true or false (also accepted: 1/0, yes/no, on/off, any case). */
export const bool = (variable: string, options: Options<boolean> = {}) =>
  setting(
    variable,
    'true or false',
    z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']))
      .transform((v) => v === 'true' || v === '1' || v === 'yes' || v === 'on'),
    options,
  );

/** `"a", "b" or "c"`: the accepted values of an enumeration, for messages. */
export const alternatives = (values: readonly string[]) => {
  const quoted = values.map((v) => `"${v}"`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}` : quoted.join('');
};

/** One of a fixed set of words, in any case; the value is the word as declared. */
export const oneOf = <const V extends readonly [string, ...string[]]>(variable: string, values: V, options: Options<V[number]> = {}) =>
  setting<V[number]>(
    variable,
    alternatives(values),
    z
      .string()
      .transform((raw) => values.find((v) => v.toLowerCase() === raw.toLowerCase()))
      .pipe(z.enum(values)) as unknown as z.ZodType<V[number]>,
    options,
  );

/** Any text (trimmed); `pattern` restricts it, described by `expected`. */
export const text = (variable: string, options: Options<string> & { pattern?: RegExp; expected?: string } = {}) =>
  setting(variable, options.expected ?? 'a text', options.pattern ? z.string().regex(options.pattern) : z.string(), options);

/** An absolute URL with one of `protocols` (default http and https), as written. */
export const url = (variable: string, options: Options<string> & { protocols?: string[] } = {}) => {
  const protocols = options.protocols ?? ['http', 'https'];
  const expected = `an absolute ${protocols.join(' or ')} URL`;
  const schema = z
    .string()
    .refine((value) => {
      try {
        const parsed = new URL(value);
        return protocols.includes(parsed.protocol.slice(0, -1)) && parsed.host !== '';
      } catch {
        return false;
      }
    });
  return setting(variable, expected, schema, options);
};

/** Comma- (or space-) separated entries; `item` checks each one. */
export const list = (variable: string, options: Options<string[]> & { item?: z.ZodType<string, string>; expected?: string } = {}) =>
  setting(
    variable,
    options.expected ?? 'a comma-separated list',
    z
      .string()
      .transform((v) => v.split(/[\s,]+/).filter(Boolean))
      .pipe(z.array(options.item ?? z.string())),
    options,
  );

/** Hosts that the guarded fetcher may reach although private: `host` or `host:port` entries. */
export const hostList = (variable: string) =>
  setting(
    variable,
    'comma-separated host or host:port entries',
    z
      .string()
      .transform((v) => v.split(/[\s,]+/).filter(Boolean))
      .refine((entries) => {
        try {
          parseHostExemptions(entries);
          return true;
        } catch {
          return false;
        }
      }),
    { default: [] as string[] },
  );

function rawValue(source: EnvSource, variable: string): string | undefined {
  const value = typeof source === 'function' ? source(variable) : source[variable];
  if (value === undefined || value === null) return undefined;
  const trimmed = String(value).trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Reads one setting: its value, its default, or a ConfigError naming the variable. */
export function readSetting<T>(item: Setting<T>, source: EnvSource): T {
  const raw = rawValue(source, item.variable);
  if (raw === undefined) {
    if (item.default !== undefined || item.optional) return item.default as T;
    throw new ConfigError(`${item.variable} is not set: expected ${item.expected}`);
  }
  const parsed = item.schema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`${item.variable}=${JSON.stringify(raw)} is not valid: expected ${item.expected}`);
  return parsed.data;
}

/** Reads every setting of a declaration (the first bad one throws). The result is frozen. */
export function readSettings<S extends Settings>(settings: S, source: EnvSource): ConfigOf<S> {
  const config: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(settings)) config[key] = readSetting(item, source);
  return Object.freeze(config) as ConfigOf<S>;
}

/** The environment variables a declaration reads (the README's configuration table lists them all). */
export const variablesOf = (settings: Settings): string[] => Object.values(settings).map((item) => item.variable);

export const trimTrailingSlashes = (value: string) => value.replace(/\/+$/, '');

/**
 * The public base URL of the server (PUBLIC_URL, see config/server.ts), without a trailing
 * slash: what links, upload URLs, trigger and status URLs are built on.
 */
export function publicUrl(strapi: { config: { get(path: string): unknown } }): string {
  return trimTrailingSlashes(String(strapi.config.get('server.url') ?? ''));
}
