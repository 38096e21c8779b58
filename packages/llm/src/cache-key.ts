import { createHash } from 'node:crypto';

export interface CacheKeyParts {
  kind: 'chat' | 'embedding' | 'plugin';
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
  // The document is fed to the hash piece by piece: a prompt is not copied into one big string
  // (and that string's pieces) before it is hashed.
  const prefix = createHash('sha256');
  const write = (piece: string) => {
    prefix.update(piece);
  };
  write(`{"kind":${JSON.stringify(parts.kind)},"modelId":${JSON.stringify(parts.modelId)},"params":`);
  writeCanonicalJson(parts.params, write);
  write(',"payload":');
  writeCanonicalJson(parts.payload, write);
  write(',"templateVersion":');
  return templateVersions.map((version) =>
    prefix
      .copy()
      .update(`${JSON.stringify(version ?? null)},"v":1}`)
      .digest('hex'),
  );
}

export function canonicalJson(value: unknown): string {
  const pieces: string[] = [];
  writeCanonicalJson(value, (piece) => pieces.push(piece));
  return pieces.join('');
}

// Sorted keys, undefined fields dropped (undefined array items are null), like JSON.stringify
// otherwise; written as a sequence of pieces.
function writeCanonicalJson(value: unknown, write: (piece: string) => void): void {
  if (value === null || typeof value !== 'object') {
    write(JSON.stringify(value) ?? 'null');
    return;
  }
  if (Array.isArray(value)) {
    write('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) write(',');
      const item: unknown = value[i];
      if (item === undefined) write('null');
      else writeCanonicalJson(item, write);
    }
    write(']');
    return;
  }
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  write('{');
  entries.forEach(([k, v], i) => {
    write(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`);
    writeCanonicalJson(v, write);
  });
  write('}');
}
