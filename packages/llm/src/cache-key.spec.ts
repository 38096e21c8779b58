import { describe, expect, it } from '@jest/globals';
import { canonicalJson, computeCacheKey } from './cache-key.js';

describe('cache key', () => {
  const base = {
    kind: 'chat' as const,
    modelId: 'm',
    params: { temperature: 0, n: undefined },
    payload: [{ role: 'user', content: 'x' }],
    templateVersion: 'v1',
  };

  it('is stable under key order and undefined fields', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, undefined], c: undefined } })).toBe(
      '{"a":{"d":[1,null]},"b":1}',
    );
    expect(computeCacheKey(base)).toBe(computeCacheKey({ ...base, params: { temperature: 0 } }));
    expect(computeCacheKey(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with model, params, messages and template version', () => {
    const k = computeCacheKey(base);
    expect(computeCacheKey({ ...base, modelId: 'm2' })).not.toBe(k);
    expect(computeCacheKey({ ...base, params: { temperature: 0.7 } })).not.toBe(k);
    expect(computeCacheKey({ ...base, payload: [{ role: 'user', content: 'y' }] })).not.toBe(k);
    expect(computeCacheKey({ ...base, templateVersion: 'v2' })).not.toBe(k);
    expect(computeCacheKey({ ...base, kind: 'embedding' })).not.toBe(k);
  });
});
