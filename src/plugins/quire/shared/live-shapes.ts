/**
 * What the server writes into an article's live document beside the sections (CONTRACT 22):
 * the canvas reads the same shapes. Types only, shared by the server and the admin bundle.
 */

/** `outline.<sectionId>`: one section as the canvas's outline shows it. */
export interface LiveOutlineEntry {
  anchor: string;
  level: number;
  title: string;
  words: number;
  source: 'markdown' | 'html';
  rev: number;
}

/** `presence.<name>`: an agent (or a person over the API) that wrote lately, present until `until` (ms). */
export interface LivePresence {
  kind: 'agent' | 'human';
  name: string;
  /** The section it wrote last (its id), or null: in the article, no section yet. */
  section: string | null;
  since: number;
  until: number;
}
