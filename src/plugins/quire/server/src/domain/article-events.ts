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

/** One thing that changed. Section changes name the section's id and its new revision. */
export type ArticleChange =
  | { type: 'section.inserted'; sectionId: string; rev: number }
  | { type: 'section.replaced'; sectionId: string; rev: number }
  | { type: 'section.moved'; sectionId: string; rev: number }
  | { type: 'section.deleted'; sectionId: string }
  | { type: 'section.restored'; sectionId: string; rev: number }
  | { type: 'brief.changed'; rev: number | null }
  | { type: 'note.added'; noteId: string; rev: number }
  | { type: 'note.updated'; noteId: string; rev: number }
  | { type: 'note.deleted'; noteId: string }
  | { type: 'suggestion.made'; suggestionId: string }
  | { type: 'suggestion.decided'; suggestionId: string; state: 'accepted' | 'rejected' | 'stale' }
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
  by: EventActor;
  /** When it was committed (ISO-8601). */
  at: string;
}
