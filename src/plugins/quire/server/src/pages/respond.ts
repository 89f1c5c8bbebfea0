/**
 * How our server-rendered pages (the CLI login page, the OAuth authorize page) answer and read
 * their forms. Shared by their controllers, so that no controller imports another.
 */
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';

/** A page of a sign-in flow: never cached, never framed (its CSP is set with its nonce). */
export function sendPage(ctx, status: number, html: string) {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  // same-origin, not no-referrer: with no-referrer browsers send "Origin: null" on form posts.
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = html;
}

/** A fresh nonce for a page's CSP (one per response). */
export const newNonce = (): string => randomBytes(16).toString('base64');

/**
 * A form body or a page's query, read with the schema its route declares. Pages read leniently:
 * a field that is missing, or that the schema refuses (sent twice, not text, not one of the
 * choices), counts as absent, so the page answers as for an empty field, with a page saying what
 * to fill in.
 */
export function readForm<S extends z.ZodObject>(schema: S, value: unknown): Partial<z.infer<S>> {
  let input: Record<string, unknown> = value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
  const lenient = schema.partial();
  for (;;) {
    const result = lenient.safeParse(input);
    if (result.success) return result.data as Partial<z.infer<S>>;
    const refused = new Set(result.error.issues.map((issue) => issue.path[0]).filter((key): key is string => typeof key === 'string' && key in input));
    if (refused.size === 0) return {};
    input = Object.fromEntries(Object.entries(input).filter(([key]) => !refused.has(key)));
  }
}

/** A field of a read form as text, at most `max` characters ('' when absent). */
export const text = (value: string | undefined, max: number) => (value ?? '').slice(0, max);
