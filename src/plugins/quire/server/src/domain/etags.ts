/**
 * The entity tags of the article API (CONTRACT section 10): a section's and a note's name their
 * id and revision, an outline's its article and outline revision. Clients treat them as opaque;
 * the prefix only keeps one kind from ever equalling another.
 */
export const sectionTag = (uuid: string, rev: number) => `"s.${uuid}.${rev}"`;
export const noteTag = (uuid: string, rev: number) => `"n.${uuid}.${rev}"`;
export const outlineTag = (articleUuid: string, outlineRev: number) => `"o.${articleUuid}.${outlineRev}"`;
