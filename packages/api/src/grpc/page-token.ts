import { InvalidInputError } from '@precis/engine';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

// 0 (unset) = the default; above the maximum = the maximum, so no page can grow past it.
export function pageSize(requested: number | undefined): number {
  const n = requested ?? 0;
  if (n < 0) throw new InvalidInputError(`page_size: must be >= 0, got ${n}`, { field: 'page_size' });
  return n === 0 ? DEFAULT_PAGE_SIZE : Math.min(n, MAX_PAGE_SIZE);
}

// Opaque to clients: the key of the last item of the previous page, and what was listed.
export function encodePageToken(list: string, after: string): string {
  return Buffer.from(JSON.stringify({ list, after })).toString('base64url');
}

export function decodePageToken(list: string, token: string | undefined): string | null {
  if (!token) return null;
  const invalid = () =>
    new InvalidInputError(
      'page_token: not a token this gateway issued for this list; start again without one',
      {
        field: 'page_token',
      },
    );
  if (token.length > 1000) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const p = parsed as { list?: unknown; after?: unknown } | null;
  if (!p || p.list !== list || typeof p.after !== 'string' || p.after.length > 200) throw invalid();
  return p.after;
}

// A request string bounded before it reaches a query or a message (e.g. a 1 MB run id).
export function boundedField(field: string, value: string | undefined, max: number): string {
  const v = (value ?? '').trim();
  if (v.length > max)
    throw new InvalidInputError(`${field}: ${v.length} characters; at most ${max} are accepted`, { field });
  return v;
}

export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
