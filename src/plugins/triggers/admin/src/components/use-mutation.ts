/**
 * Calls an admin route that changes (or reveals) something: the signed-in admin's token, a notification
 * on failure (Strapi's error message), and the error kept for fields that show it inline.
 */
import { useAPIErrorHandler, useFetchClient, useNotification } from '@strapi/strapi/admin';
import * as React from 'react';

type Method = 'get' | 'post' | 'put' | 'del';

export function useMutation() {
  const client = useFetchClient();
  const { toggleNotification } = useNotification();
  const { formatAPIError } = useAPIErrorHandler();
  const [busy, setBusy] = React.useState(false);

  const call = React.useCallback(
    async <T,>(method: Method, url: string, body?: unknown, options: { quiet?: boolean } = {}): Promise<{ data?: T; error?: string }> => {
      setBusy(true);
      try {
        const response =
          method === 'del' ? await client.del<{ data: T }>(url) : method === 'get' ? await client.get<{ data: T }>(url) : await client[method]<{ data: T }>(url, body);
        return { data: response.data.data };
      } catch (error) {
        const message = formatAPIError(error as never);
        if (!options.quiet) toggleNotification({ type: 'danger', message });
        return { error: message };
      } finally {
        setBusy(false);
      }
    },
    // `client` changes identity on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  return { call, busy };
}
