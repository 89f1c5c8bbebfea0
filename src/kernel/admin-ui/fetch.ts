/**
 * What every plugin's API modules (`admin/src/api/<resource>.ts`) build on: the admin's fetch
 * client (`useFetchClient`, the signed-in admin's token, a refresh on 401), the `{ data }` our
 * admin routes answer, the ETag of a versioned read and the If-Match of a conditional write.
 */
import { useFetchClient, type FetchClient, type FetchOptions } from '@strapi/strapi/admin';

export type { FetchClient };

/** A resource as read, with the ETag a conditional write sends back as If-Match (null when the route gives none). */
export interface Versioned<T> {
  value: T;
  etag: string | null;
}

/** The `data` of an admin route's answer (`{ data, meta? }`). */
export const dataOf = async <T,>(answer: Promise<{ data: { data: T } }>): Promise<T> => (await answer).data.data;

/**
 * GETs a versioned resource: its `data` and ETag. Read as text, because the admin's JSON reader
 * does not hand back the response's headers.
 */
export async function readVersioned<T>(client: FetchClient, url: string, options: FetchOptions = {}): Promise<Versioned<T>> {
  const response = await client.get(url, { ...options, responseType: 'text' });
  return { value: JSON.parse(response.data).data as T, etag: response.headers?.get('ETag') ?? null };
}

/** The request options of a conditional write: If-Match with the ETag held (none without one: an unconditional write). */
export const ifMatch = (etag: string | null | undefined): FetchOptions | undefined => (etag ? { headers: { 'If-Match': etag } } : undefined);

/** Whether a write was refused because what it changes changed since it was read (412 precondition-failed). */
export const isConflict = (problem: unknown) => (problem as { status?: number } | null)?.status === 412;

/** The admin's fetch client, for a plugin's API module hook (`useArticlesApi()` and the like). */
export const useClient = (): FetchClient => useFetchClient();
