/**
 * The edits engine's types (services/edits): who acts, what an edit request is given and what
 * it answers. Apart from the engine, so the services that run edits (sections, history, trash,
 * suggestions) and the controllers need not import it.
 */
import type { Knex } from 'knex';
import type { Precondition } from '#kernel/conditional';
import type { EventActor } from '../domain/article-events';
import type { DiffPart } from '../domain/diff';
import type { SectionContent } from '../domain/markdown';
import type { Outline } from '../domain/outline';
import type { EditOp } from '../schemas/inputs/edits';
import type { OutlineEntry } from '../schemas/records';

/** Who made a change: an agent (API key, OAuth token), a person (JWT, session) or an admin editor (canvas). */
export type Actor = EventActor;

/** One operation's answer (CONTRACT section 11). */
export interface OpResult {
  op: EditOp['op'];
  added?: OutlineEntry[];
  updated?: OutlineEntry[];
  removed?: string[];
  replaced?: number;
  /** Dry runs: a unified diff of the text it changed. */
  diff?: string;
}

export interface EditOptions {
  actor: Actor;
  dryRun?: boolean;
  /** The outline's precondition (If-Match header or `ifMatch` of the body). */
  ifMatch?: Precondition;
  /** A single-section route: errors keep their own message (no `ops[0] (op): ` prefix), and no `$N`. */
  single?: boolean;
  /** A suggestion's accept: the revisions its sections had when it was made (id -> rev); any change is 412. */
  base?: Record<string, number>;
  /** Runs in the transaction, under the article's lock, before the ops (a suggestion's accept claims it there). */
  within?: (trx: Knex, articleRowId: number) => Promise<void>;
  /** Restores of a revision: the op `replace` writes this content instead of splitting Markdown. */
  contents?: Map<number, SectionContent[]>;
  /** Runs in the transaction after the ops, with the sections' revisions as they left them (a suggestion's accept records them). */
  afterOps?: (trx: Knex, state: { outline: Outline; touched: Record<string, number>; produced: string[][] }) => Promise<void>;
  /**
   * The live canvas's stores: a replace by the editor who also made the section's current
   * version less than this many seconds ago keeps no revision of it (one revision per burst).
   */
  coalesceSeconds?: number;
  /** Restores of a revision: the revision restored (its article event says so). */
  restoredRev?: number;
}

export interface EditOutcome {
  articleUuid: string;
  results: OpResult[];
  outline: Outline;
  /** The outline's revision after the request (what its ETag names). */
  outlineRev: number;
  /** The sections each op produced (ids), for `$N` and for single routes' answers. */
  produced: string[][];
  /** Sections the ops read or changed, with their revision before the request (a suggestion's base). */
  touched: Record<string, number>;
  /** The ops with every anchor and `$N` replaced by the full section id (what a suggestion stores). */
  resolvedOps: EditOp[];
  /** Dry runs: the texts each changing op's diff compares (result index -> parts), diffed after the transaction. */
  diffParts?: Map<number, DiffPart[]>;
}

