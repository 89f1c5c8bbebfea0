import type { Core } from '@strapi/strapi';
import { quireConfig } from '../config';
import type { Outline } from '../domain/outline';

/**
 * Outlines of recently used articles, each tagged with the article's `outlineRev`, the counter
 * every section write bumps while it holds the article's lock. An entry is used only when its
 * revision is the article's current one, so a write from another process is never missed: it
 * changes the revision and the next reader loads from the database. This keeps reading and
 * ordering every section of a large article off the path of each insert and outline read.
 *
 * Bounded by the total number of sections held (QUIRE_OUTLINE_CACHE_SECTIONS, default
 * 50,000; 0 turns it off), least recently used first out.
 */
export function createOutlineCache(maxSections: number) {
  const entries = new Map<number, { rev: number; outline: Outline }>();
  let held = 0;

  function drop(articleRowId: number) {
    const found = entries.get(articleRowId);
    if (found) {
      held -= found.outline.size;
      entries.delete(articleRowId);
    }
  }

  return {
    /** The outline at revision `rev`, if held. */
    get(articleRowId: number, rev: number): Outline | undefined {
      const found = entries.get(articleRowId);
      if (!found || found.rev !== rev) return undefined;
      entries.delete(articleRowId); // refresh its place in the LRU order
      entries.set(articleRowId, found);
      return found.outline;
    },

    set(articleRowId: number, rev: number, outline: Outline) {
      drop(articleRowId);
      if (outline.size > maxSections) return;
      entries.set(articleRowId, { rev, outline });
      held += outline.size;
      for (const [id, entry] of entries) {
        if (held <= maxSections) break;
        held -= entry.outline.size;
        entries.delete(id);
      }
    },

    drop,

    clear() {
      entries.clear();
      held = 0;
    },
  };
}

export default ({ strapi }: { strapi: Core.Strapi }) => createOutlineCache(quireConfig(strapi).outlineCacheSections);
