/**
 * What the person reads, in one place: a plugin's messages (`m('key', 'Default text', values)`,
 * the same defaults as its translations/en.json), an admin route's error turned into words, and
 * the toasts that carry both.
 *
 * Our admin routes answer errors in Strapi's admin format with our envelope inside
 * (src/kernel/admin-routes.ts): `{ error: { status, name, message, details: { code, nextAction } } }`.
 */
import { useAPIErrorHandler, useNotification } from '@strapi/strapi/admin';
import * as React from 'react';
import { useIntl } from 'react-intl';

/** An admin route's refusal, read from the fetch client's error (every field absent for a network failure or a bug). */
export interface AdminProblem {
  status?: number;
  /** The envelope's code (`invalid-argument`, `precondition-failed`...). */
  code?: string;
  message?: string;
  /** What to do about it, when the server says. */
  nextAction?: string;
}

interface FetchErrorLike {
  status?: number;
  response?: { data?: { error?: { status?: number; message?: string; details?: { code?: string; nextAction?: string } } } };
}

export function problemOf(error: unknown): AdminProblem {
  const failure = (error ?? {}) as FetchErrorLike;
  const body = failure.response?.data?.error;
  return { status: failure.status ?? body?.status, code: body?.details?.code, message: body?.message, nextAction: body?.details?.nextAction };
}

export type Message = (id: string, defaultMessage: string, values?: Record<string, unknown>) => string;

/** Toasts and error words, without a plugin's messages (the kernel's hooks use it). */
export function useNotices() {
  const { toggleNotification } = useNotification();
  const { formatAPIError } = useAPIErrorHandler();
  return React.useMemo(() => {
    /** The words of a failed call: the server's message (Strapi's formatting, as its own pages show it). */
    const errorText = (error: unknown): string => formatAPIError(error as never);
    return {
      errorText,
      success: (message: string) => toggleNotification({ type: 'success', message }),
      info: (message: string) => toggleNotification({ type: 'info', message }),
      warning: (message: string) => toggleNotification({ type: 'warning', message }),
      danger: (message: string) => toggleNotification({ type: 'danger', message }),
      /** A failed call, as a danger toast in the server's words. */
      failure: (error: unknown) => toggleNotification({ type: 'danger', message: errorText(error) }),
    };
  }, [toggleNotification, formatAPIError]);
}

/**
 * `const { m, notify } = useMessages(t)`, `t` the plugin's translation id (`pluginId.ts`).
 * `notify.failure(error)` shows a failed call; `problemOf(error)` reads its code and message
 * for a field that shows it inline.
 */
export function useMessages(translationId: (id: string) => string) {
  const { formatMessage } = useIntl();
  const notify = useNotices();
  const m: Message = (id, defaultMessage, values) => formatMessage({ id: translationId(id), defaultMessage }, values as never) as string;
  return { m, notify, problemOf };
}
