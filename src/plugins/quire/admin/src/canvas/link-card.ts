/**
 * The link card node now lives in the shared editor schema (shared/editor-extensions.ts), which
 * the server uses too; the admin keeps the paste helper here.
 */
export { LinkCard, type LinkCardAttributes } from '../../../shared/editor-extensions';

/** A pasted text that is one http(s) link and nothing else. */
export const pastedLink = (text: string): string | null => {
  const trimmed = text.trim();
  if (!/^https?:\/\/\S+$/i.test(trimmed)) return null;
  try {
    return new URL(trimmed).href;
  } catch {
    return null;
  }
};
