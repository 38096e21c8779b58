import { createHash } from 'node:crypto';

// Content address of a call: sha256 over a canonical JSON (sorted keys, undefined dropped) of
// the provider's model id, the sampling params, the messages or inputs, and the template version.
export function computeCacheKey(parts: {
  kind: 'chat' | 'embedding';
  modelId: string;
  params: Record<string, unknown>;
  payload: unknown;
  templateVersion?: string | null;
}): string {
  const doc = {
    v: 1,
    kind: parts.kind,
    modelId: parts.modelId,
    params: parts.params,
    payload: parts.payload,
    templateVersion: parts.templateVersion ?? null,
  };
  return createHash('sha256').update(canonicalJson(doc)).digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
