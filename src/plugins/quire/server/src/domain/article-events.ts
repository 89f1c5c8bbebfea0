/**
 * Article events: one per committed change to an article, published after the commit by the
 * service that made it (services/events.ts), whatever the door (HTTP, CLI, MCP, the canvas).
 * Subscribers (the live canvas, presence, later outgoing webhooks) read them; services never
 * import a subscriber. A rolled-back transaction publishes nothing.
 *
 * Events carry identities and revisions, not content: a subscriber that needs the text reads
 * it (the stored record is the truth, and an event may arrive from another process).
 */

/** Who made the change (the same shape as a revision's `by`). */
export interface EventActor {
  kind: 'agent' | 'human' | 'editor';
  name: string;
}

/**
 * One thing that changed. Section and note changes name the item's full id and, when it still
 * exists, its new revision (`rev`, what its ETag names). Which service publishes each:
 * - section.*: the edits engine (services/edits), whatever the door: the single-section routes,
 *   POST edits, a revision restore (`section.replaced` with `restoredRev`), a trash restore
 *   (`section.restored`), an accepted suggestion; and a new article's first sections.
 * - brief.changed: the premise (services/notes setPremise); a brief has no revision: `rev` null.
 * - note.*: services/notes (and a new article's notes).
 * - suggestion.*: services/suggestions (`stale`: an accept found the article changed).
 * - thread.*, comment.created: services/threads (CONTRACT 24).
 * - article.*: services/articles (created, also by imports; updated: the title; deleted) and
 *   services/publications (published, unpublished).
 */
export type ArticleChange =
  | { type: 'section.inserted'; sectionId: string; rev: number }
  | { type: 'section.replaced'; sectionId: string; rev: number; /** A revision restore: the revision whose content it took. */ restoredRev?: number }
  | { type: 'section.moved'; sectionId: string; rev: number }
  | { type: 'section.deleted'; sectionId: string }
  | { type: 'section.restored'; sectionId: string; rev: number }
  | { type: 'brief.changed'; rev: number | null }
  | { type: 'note.added'; noteId: string; rev: number }
  | { type: 'note.updated'; noteId: string; rev: number }
  | { type: 'note.deleted'; noteId: string }
  | { type: 'suggestion.made'; suggestionId: string }
  | { type: 'suggestion.decided'; suggestionId: string; state: 'accepted' | 'rejected' | 'stale'; /** Who decided (accepted, rejected); the event's `by` is who the changes are recorded as. */ decidedBy?: EventActor; /** Decided for these sections (ids) only: the rest stays pending. */ sections?: string[] }
  | { type: 'thread.created'; threadId: string }
  | { type: 'comment.created'; threadId: string; commentId: string }
  | { type: 'thread.resolved'; threadId: string }
  | { type: 'thread.reopened'; threadId: string }
  | { type: 'article.created' }
  | { type: 'article.updated' }
  | { type: 'article.deleted' }
  | { type: 'article.published' }
  | { type: 'article.unpublished' };

export type ArticleChangeType = ArticleChange['type'];

export interface ArticleEvent {
  /** The article's public id (documentId). */
  articleId: string;
  /** The owning user's id: subscribers scope by owner as every query does. */
  ownerId: number;
  /** What changed, in the order it happened within the one transaction. */
  changes: ArticleChange[];
  /** Who made the change, as the revisions record it (an accepted suggestion: its author). */
  by: EventActor;
  /** When it was committed (ISO-8601). */
  at: string;
}
