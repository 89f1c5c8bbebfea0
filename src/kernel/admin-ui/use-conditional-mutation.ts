/**
 * Writes that must not overwrite someone else's change (RFC 9110 If-Match, CONTRACT 20): the
 * hook holds the version last read (its value and ETag) and sends that ETag as If-Match with
 * every write. When the server answers 412 (someone changed it since), nothing was written: the
 * hook reads the current version, keeps it as `conflict` with who made it, and says so in a
 * warning toast; the page then shows theirs beside the person's own, or continues from theirs
 * (`takeTheirs`). A write that went through is read again, so the next one sends the new ETag
 * (the admin's fetch client does not hand back a write's headers).
 *
 *   const section = useConditionalMutation({
 *     read: () => sections.current(anchor),          // the API module's versioned read
 *     changedBy: (value) => value.by?.name,          // who made the current version
 *     conflictMessage: ({ by }) => m('review.restore.changed', '...', { name: by }),
 *   });
 *   await section.load();
 *   const { conflict } = await section.write((request) => sections.restoreRevision(anchor, rev, request));
 */
import * as React from 'react';
import { isConflict, type Versioned } from './fetch';
import type { FetchOptions } from '@strapi/strapi/admin';
import { useNotices } from './use-messages';

export interface Conflict<T> extends Versioned<T> {
  /** Who made the current version, when the resource says (else null). */
  by: string | null;
}

export interface ConditionalWrite<R, T> {
  data?: R;
  /** Set when the write was refused (412): the current version. */
  conflict?: Conflict<T>;
  /** Set when it failed otherwise (already shown in a danger toast). */
  error?: unknown;
}

export interface ConditionalOptions<T> {
  /** The current version, with its ETag (the API module's versioned read). */
  read: () => Promise<Versioned<T>>;
  /** Who made a version (its last writer), for the conflict's report. */
  changedBy?: (value: T) => string | null | undefined;
  /** The warning shown on a conflict; without it the page reports the conflict itself. */
  conflictMessage?: (conflict: Conflict<T>) => string;
}

export function useConditionalMutation<T>(options: ConditionalOptions<T>) {
  const notices = useNotices();
  const noticesRef = React.useRef(notices);
  noticesRef.current = notices;
  const optionsRef = React.useRef(options);
  optionsRef.current = options;
  const [held, setHeld] = React.useState<Versioned<T> | null>(null);
  const heldRef = React.useRef<Versioned<T> | null>(null);
  const [conflict, setConflict] = React.useState<Conflict<T> | null>(null);
  const [busy, setBusy] = React.useState(false);

  const hold = React.useCallback((version: Versioned<T> | null) => {
    heldRef.current = version;
    setHeld(version);
  }, []);

  /** Reads the current version and holds it (its ETag goes with the next write). */
  const load = React.useCallback(async () => {
    const version = await optionsRef.current.read();
    hold(version);
    setConflict(null);
    return version;
  }, [hold]);

  /**
   * Sends one write with If-Match (the held ETag, or `etag` when given: `null` writes
   * unconditionally, e.g. "keep mine" after a conflict).
   */
  const write = React.useCallback(
    async <R,>(send: (request: FetchOptions | undefined) => Promise<R>, writeOptions: { etag?: string | null; reread?: boolean } = {}): Promise<ConditionalWrite<R, T>> => {
      const notify = noticesRef.current;
      const etag = writeOptions.etag === undefined ? heldRef.current?.etag : writeOptions.etag;
      setBusy(true);
      try {
        const data = await send(etag ? { headers: { 'If-Match': etag } } : undefined);
        if (writeOptions.reread !== false) await load().catch(() => hold(null));
        return { data };
      } catch (failure) {
        if (!isConflict(failure)) {
          notify.failure(failure);
          return { error: failure };
        }
        try {
          const current = await optionsRef.current.read();
          const found: Conflict<T> = { ...current, by: optionsRef.current.changedBy?.(current.value) ?? null };
          setConflict(found);
          const message = optionsRef.current.conflictMessage?.(found);
          if (message) notify.warning(message);
          return { conflict: found };
        } catch (again) {
          notify.failure(again);
          return { error: again };
        }
      } finally {
        setBusy(false);
      }
    },
    [hold, load],
  );

  /** After a conflict: continue from the current version (its ETag goes with the next write). */
  const takeTheirs = React.useCallback(() => {
    setConflict((found) => {
      if (found) hold({ value: found.value, etag: found.etag });
      return null;
    });
  }, [hold]);

  return { held, conflict, busy, load, hold, write, takeTheirs };
}
