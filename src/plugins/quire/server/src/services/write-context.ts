/**
 * What a write request says about itself, for the change set it makes (CONTRACT 23): the
 * writer's `reason` and `run`, and, once the write has committed its change set, which one
 * (added to the answer as `changeSet`). Kept in an AsyncLocalStorage that a declared stage
 * opens around each article write route's handler (routes/stages.ts writeContextStage), so the write
 * path (services/edits, services/notes) records them without every service passing them on.
 * Writes outside a request (the live canvas's stores, other plugins) have no context: their
 * change sets have no reason and no run.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { NewSection } from '../repositories/change-sets';

export interface WriteContext {
  reason?: string | null;
  run?: string | null;
  /** The change set the request made (the last one, when it made several). */
  changeSet?: { id: string; anchor: string };
  /** A suggestion's accept: the pending change set (the suggestion's id) that the write fulfils. */
  accepting?: string;
  /** A suggestion accepted for some sections: the write is an accepted change set, and those sections leave the pending one. */
  acceptedPart?: { suggestion: string; sections: string[] };
  /** A revert: the id its change set takes (the reverted ones name it as revertedBy). */
  newId?: string;
  /** A suggestion's dry run: the sections it would change, captured instead of written. */
  capture?: NewSection[];
}

export const writeContext = new AsyncLocalStorage<WriteContext>();

/** The context of the write in progress (an empty one outside a request). */
export const currentWrite = (): WriteContext => writeContext.getStore() ?? {};

/** Runs `work` with a context of its own, inheriting reason and run from the enclosing one. */
export function withWrite<T>(extra: WriteContext, work: () => Promise<T>): Promise<T> {
  const outer = writeContext.getStore();
  const inner: WriteContext = { reason: outer?.reason, run: outer?.run, ...extra };
  return writeContext.run(inner, async () => {
    try {
      return await work();
    } finally {
      if (outer && inner.changeSet) outer.changeSet = inner.changeSet;
    }
  });
}
