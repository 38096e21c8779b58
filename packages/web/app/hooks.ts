import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, getJson, isAbort, type ParamsOf, toApiError } from './api';
import type { JsonOf, JsonPath } from './api-schema';
import { useAuth } from './auth';

export interface Fetched<T> {
  data: T | undefined;
  error: ApiError | null;
  loading: boolean;
  // Fetches again, keeping the current data on screen meanwhile.
  reload: () => void;
}

interface State<T> {
  key: string | null;
  data: T | undefined;
  error: ApiError | null;
  loading: boolean;
}

// GET one API path with its parameters (null: nothing to fetch); refetched when they or the API
// key change.
export function useFetch<P extends JsonPath>(path: P | null, params: ParamsOf<P>): Fetched<JsonOf<P>> {
  const { version } = useAuth();
  const [tick, setTick] = useState(0);
  const key = path === null ? null : `${path} ${JSON.stringify(params)}`;
  // The parameters the key was made of (a new object each render).
  const asked = useRef(params);
  asked.current = params;
  const [state, setState] = useState<State<JsonOf<P>>>({
    key,
    data: undefined,
    error: null,
    loading: key !== null,
  });

  useEffect(() => {
    if (path === null) return;
    const ctrl = new AbortController();
    setState((s) =>
      s.key === key ? { ...s, loading: true } : { key, data: undefined, error: null, loading: true },
    );
    getJson(path, asked.current, ctrl.signal).then(
      (data) => setState({ key, data, error: null, loading: false }),
      (e: unknown) => {
        if (isAbort(e)) return;
        setState((s) => ({ ...s, key, error: toApiError(e), loading: false }));
      },
    );
    return () => ctrl.abort();
  }, [path, key, tick, version]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  // Until the effect runs for a new key, what is held belongs to the old one.
  if (state.key !== key) return { data: undefined, error: null, loading: key !== null, reload };
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
