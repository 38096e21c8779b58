import { useEffect, useState } from 'preact/hooks';

// Hash routes, so the same static file works from the gateway and from disk.
export type Route =
  | { page: 'runs' }
  | { page: 'run'; runId: string }
  | { page: 'document'; runId: string; documentId: string }
  | { page: 'side-by-side'; runId: string; documentId: string }
  | { page: 'compare'; runs: string[]; metric: string | null }
  | { page: 'not-found'; hash: string };

const dec = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/';
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1));
  const parts = path.split('/').filter(Boolean).map(dec);
  if (parts.length === 0) return { page: 'runs' };
  if (parts[0] === 'runs' && parts[1]) {
    if (parts.length === 2) return { page: 'run', runId: parts[1] };
    if (parts.length === 4 && parts[2] === 'documents' && parts[3])
      return { page: 'document', runId: parts[1], documentId: parts[3] };
    if (parts.length === 5 && parts[2] === 'documents' && parts[3] && parts[4] === 'side-by-side')
      return { page: 'side-by-side', runId: parts[1], documentId: parts[3] };
  }
  if (parts[0] === 'compare' && parts.length === 1) {
    const runs = (query.get('runs') ?? '').split(',').filter(Boolean);
    return { page: 'compare', runs, metric: query.get('metric') || null };
  }
  return { page: 'not-found', hash: raw };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseHash(location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

const e = encodeURIComponent;

export const href = {
  runs: (): string => '#/',
  run: (runId: string): string => `#/runs/${e(runId)}`,
  document: (runId: string, documentId: string): string => `#/runs/${e(runId)}/documents/${e(documentId)}`,
  sideBySide: (runId: string, documentId: string): string =>
    `#/runs/${e(runId)}/documents/${e(documentId)}/side-by-side`,
  compare: (runs: string[], metric?: string | null): string =>
    `#/compare?runs=${runs.map(e).join(',')}${metric ? `&metric=${e(metric)}` : ''}`,
};
