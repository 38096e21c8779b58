import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, getJson, isAbort, toApiError } from './api';
import { useAuth } from './auth';

export interface Fetched<T> {
  data: T | undefined;
  error: ApiError | null;
  loading: boolean;
  // Fetches again, keeping the current data on screen meanwhile.
  reload: () => void;
}

interface State<T> {
  path: string | null;
  data: T | undefined;
  error: ApiError | null;
  loading: boolean;
}

// GET one API path (null: nothing to fetch); refetched when the API key changes.
export function useFetch<T>(path: string | null): Fetched<T> {
  const { version } = useAuth();
  const [tick, setTick] = useState(0);
  const [state, setState] = useState<State<T>>({
    path,
    data: undefined,
    error: null,
    loading: path !== null,
  });

  useEffect(() => {
    if (path === null) return;
    const ctrl = new AbortController();
    setState((s) =>
      s.path === path ? { ...s, loading: true } : { path, data: undefined, error: null, loading: true },
    );
    getJson<T>(path, ctrl.signal).then(
      (data) => setState({ path, data, error: null, loading: false }),
      (e: unknown) => {
        if (isAbort(e)) return;
        setState((s) => ({ ...s, path, error: toApiError(e), loading: false }));
      },
    );
    return () => ctrl.abort();
  }, [path, tick, version]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  // Until the effect runs for a new path, what is held belongs to the old one.
  if (state.path !== path) return { data: undefined, error: null, loading: path !== null, reload };
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

// The width of an element, followed as it resizes (charts redraw to fit).
export function useWidth(el: HTMLElement | null): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!el) return;
    const observer = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect.width;
      if (w !== undefined) setWidth(Math.floor(w));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return width;
}
