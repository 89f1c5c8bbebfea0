/**
 * The search as typed, from the `_q` query parameter that the admin's `SearchInput` writes
 * (URI-encoded) into the page's URL.
 */
export function searchText(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
