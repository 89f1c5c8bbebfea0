/**
 * What a route answers with each status, and the bodies it reads itself: the vocabulary of
 * route declarations (kernel/routes/declare.ts) for what is not our JSON envelope.
 */
import type { z } from 'zod';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** An answer that is not our JSON envelope: a page, a document, a redirect, nothing. */
export interface ContentAnswer {
  kind: 'content';
  /** Media types of the body ([] for none). */
  types: readonly string[];
  description: string;
  /** A JSON body's schema (the OpenAPI document itself), when it is JSON but not the envelope. */
  schema?: z.ZodType;
  /** Response headers worth documenting, with a description each. */
  headers?: Readonly<Record<string, string>>;
}

/** What a route answers with one status: the `data` schema of the success envelope, or another content. */
export type Answer = z.ZodType | ContentAnswer;

export const page = (description: string): ContentAnswer => ({ kind: 'content', types: ['text/html'], description });
export const content = (types: readonly string[], description: string, schema?: z.ZodType): ContentAnswer => ({ kind: 'content', types, description, schema });
/** A redirect: Location says where; the body is Koa's short "Redirecting to ..." (HTML or text). */
export const redirect = (description: string): ContentAnswer => ({
  kind: 'content',
  types: ['text/html', 'text/plain'],
  description,
  headers: { Location: 'Where to go next.' },
});
export const empty = (description: string): ContentAnswer => ({ kind: 'content', types: [], description });

/** A body the route reads itself (an image, a webhook's exact bytes, a form). */
export interface RawBody {
  kind: 'raw';
  types: readonly string[];
  description: string;
  /** What the body holds, when it is structured (the kernel does not parse it; the controller reads it, pages with this schema). */
  schema?: z.ZodType;
  required?: boolean;
}

export const rawBody = (types: readonly string[], description: string, schema?: z.ZodType): RawBody => ({ kind: 'raw', types, description, schema, required: true });
/** An HTML form post (application/x-www-form-urlencoded). */
export const form = <S extends z.ZodType>(schema: S, description: string) =>
  ({ kind: 'raw', types: ['application/x-www-form-urlencoded'], description, schema, required: true }) satisfies RawBody;
