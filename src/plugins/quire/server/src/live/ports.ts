/**
 * What the live channel's extensions need from the rest of the app, as small interfaces
 * (live/server.ts gives them Strapi's services; tests give them objects of their own), and the
 * names they share.
 */
import { normalizeId } from '../domain/anchors';
import type { ArticleEvent, EventActor } from '../domain/article-events';
import type { PresenceMark } from './article-doc';

export const LIVE_PATH = '/quire/live';
/** An update message larger than this is refused (CONTRACT 19). */
export const MAX_UPDATE_BYTES = 1024 * 1024;
/** Close code of a refused change (the reason, in words, comes first as a stateless message). */
export const REFUSED_CLOSE_CODE = 4413;

export const docName = (articleId: string) => `article:${articleId}`;
export const articleOfDoc = (name: string): string | null => (name.startsWith('article:') ? normalizeId(name.slice('article:'.length)) : null);

/** Who a connection is: the admin user, their session, and whether they may write. */
export interface LiveContext {
  adminId: number;
  name: string;
  canEdit: boolean;
  /** The admin session behind the token (checked again while the connection is open). */
  sessionId?: string;
}

/** An error Hocuspocus turns into a close (code, reason) or an authentication refusal (reason). */
export const refusal = (reason: string, code = 4403) => Object.assign(new Error(reason), { reason, code });

/**
 * The origin of a change the server applies from the stored state: already stored, so it
 * starts no store. `context.by` names the writer, when known.
 */
export const merged = (by?: EventActor) => ({ source: 'local' as const, skipStoreHooks: true, context: { by } });

/** What people typed since the last store (see services/live-state store). */
export interface TypedChange {
  update: Uint8Array;
  sections: Map<string, EventActor>;
  premise: EventActor | null;
  /** Sections whose split by a typed heading was deferred (StoreResult.pendingSplits): split now if they settled. */
  resplit?: Map<string, EventActor>;
  /** The document's state vector: the answer holds only what the document lacks (without it: the whole state). */
  vector?: Uint8Array;
}

/** A store's answer: what the stored state has that the document lacks, its vector after, and whether it was saved (nothing changed the text: not saved). */
export interface StoreResult {
  state: Uint8Array;
  vector: Uint8Array;
  saved: boolean;
  /** Sections with a typed heading whose blocks were still being typed in: stored whole, to split at the next store. */
  pendingSplits?: string[];
}

/** The stored state as read: an update, and the last stored update it holds (to ask for what comes after). */
export interface StoredState {
  update: Uint8Array | null;
  through: number;
}

/** The stored article: its one Yjs state, kept in step with its rows by every write. */
export interface LiveStore {
  /** The stored state of an article being opened (built when it has none); null: no such article. */
  load(articleId: string): Promise<Uint8Array | null>;
  /**
   * The stored state as it is now, as one update; with `after` (an earlier answer's `through`),
   * at least what was stored since (null update: nothing). Null: gone.
   */
  stored(articleId: string, after?: number): Promise<StoredState | null>;
  /** Stores typing (merged into the stored state, changed sections written); answers the state after. */
  store(articleId: string, typed: TypedChange): Promise<StoreResult | null>;
  /** The trash entry of a section deleted while someone typed in it holds their text. */
  keepInTrash(articleId: string, sectionId: string, html: string): Promise<void>;
}

/** Who may use the live channel, from an admin access token; and again, while connected. */
export interface LiveAccess {
  /** The connection's context, or a refusal (thrown) that says why not. */
  authenticate(token: string): Promise<LiveContext>;
  /** What the connection's admin may do now: 'edit', 'read', or 'none' (signed out, blocked, no read). */
  recheck(context: LiveContext): Promise<'edit' | 'read' | 'none'>;
  /** Whether the article exists. */
  exists(articleId: string): Promise<boolean>;
}

/** Article events (services/events): every committed change to an article. */
export interface LiveEvents {
  subscribe(listener: (event: ArticleEvent) => void | Promise<void>): () => void;
  settled(): Promise<void>;
  /** Agents (and people over the API) who wrote in the article in the last 60 s, for a document opened after their write. */
  recentWriters?(articleId: string): PresenceMark[];
}

export interface LiveLog {
  info(message: string): void;
  warn(message: string): void;
}
