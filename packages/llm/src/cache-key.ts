import { createHash } from 'node:crypto';

export interface CacheKeyParts {
  kind: 'chat' | 'embedding';
  modelId: string;
  params: Record<string, unknown>;
  payload: unknown;
  templateVersion?: string | null;
}

// Content address of a call: sha256 over a canonical JSON (sorted keys, undefined dropped) of
// the provider's model id, the sampling params, the messages or inputs, and the template version.
export function computeCacheKey(parts: CacheKeyParts): string {
  return computeCacheKeys(parts, [parts.templateVersion])[0]!;
}

// The keys of several calls that differ only in their template version (a judge's n samples of
// one prompt): the same digests as computeCacheKey, but the prompt is serialized and hashed once.
// "templateVersion" sorts after every other field but "v", so the document is a shared prefix
// followed by a short per-version suffix.
export function computeCacheKeys(
  parts: Omit<CacheKeyParts, 'templateVersion'>,
  templateVersions: readonly (string | null | undefined)[],
): string[] {
  const prefix = createHash('sha256').update(
    `{"kind":${JSON.stringify(parts.kind)},"modelId":${JSON.stringify(parts.modelId)},` +
      `"params":${canonicalJson(parts.params)},"payload":${canonicalJson(parts.payload)},"templateVersion":`,
  );
  return templateVersions.map((version) =>
    prefix
      .copy()
      .update(`${JSON.stringify(version ?? null)},"v":1}`)
      .digest('hex'),
  );
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
