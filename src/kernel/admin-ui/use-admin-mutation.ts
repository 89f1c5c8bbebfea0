/**
 * A call that changes (or reveals) something, from a button or a form: `busy` while it runs, a
 * danger toast in the server's words when it fails (unless `quiet`: a form shows the error at
 * its field), a success toast when asked.
 */
import * as React from 'react';
import { problemOf, useNotices, type AdminProblem } from './use-messages';

export interface MutationResult<T> {
  data?: T;
  /** The words of the failure (as the toast would show them). */
  error?: string;
  problem?: AdminProblem;
}

export function useAdminMutation() {
  const notices = useNotices();
  // `run` keeps one identity (effects may depend on it); the toasts it uses are the latest.
  const noticesRef = React.useRef(notices);
  noticesRef.current = notices;
  const [busy, setBusy] = React.useState(false);
  const run = React.useCallback(
    async <T,>(work: () => Promise<T>, options: { quiet?: boolean; success?: string | ((data: T) => string) } = {}): Promise<MutationResult<T>> => {
      const notify = noticesRef.current;
      setBusy(true);
      try {
        const data = await work();
        if (options.success) notify.success(typeof options.success === 'function' ? options.success(data) : options.success);
        return { data };
      } catch (failure) {
        const error = notify.errorText(failure);
        if (!options.quiet) notify.failure(failure);
        return { error, problem: problemOf(failure) };
      } finally {
        setBusy(false);
      }
    },
    [],
  );
  return { run, busy };
}
