import { useFetchClient } from '@strapi/strapi/admin';
import * as React from 'react';

export interface AdminGet<T> {
  data: T | undefined;
  /** The admin fetch client's FetchError (its `status` and Strapi error body), or another error. */
  error: unknown;
  isLoading: boolean;
  reload: () => void;
}

/**
 * GETs one of our admin routes (e.g. `/<plugin>/<resource>`) with the signed-in admin's token, again
 * whenever `url` or `params` change; the previous answer stays shown while the next loads.
 * A null url fetches nothing.
 */
export function useAdminGet<T>(url: string | null, params?: Record<string, unknown>): AdminGet<T> {
  const { get } = useFetchClient();
  const [state, setState] = React.useState<{ data?: T; error?: unknown; isLoading: boolean }>({ isLoading: url !== null });
  const [generation, setGeneration] = React.useState(0);
  const key = JSON.stringify([url, params ?? null, generation]);

  React.useEffect(() => {
    if (url === null) return;
    let current = true;
    setState((previous) => ({ data: previous.data, isLoading: true }));
    get<T>(url, { params }).then(
      (response) => current && setState({ data: response.data, isLoading: false }),
      (error) => current && setState({ error, isLoading: false }),
    );
    return () => {
      current = false;
    };
    // `key` covers url, params and reloads; `get` changes identity on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const reload = React.useCallback(() => setGeneration((n) => n + 1), []);
  return { data: state.data, error: state.error, isLoading: state.isLoading, reload };
}
