import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { canonicalJson, computeCacheKey, computeCacheKeys } from './cache-key.js';

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

  it('is the sha256 of the canonical document, one key per template version', () => {
    const doc = (templateVersion: string | null) =>
      canonicalJson({
        v: 1,
        kind: 'chat',
        modelId: 'm',
        params: base.params,
        payload: base.payload,
        templateVersion,
      });
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(computeCacheKey(base)).toBe(sha(doc('v1')));
    expect(computeCacheKey({ ...base, templateVersion: undefined })).toBe(sha(doc(null)));
    const versions = ['v1#sample-0', 'v1#sample-1', null, 'quote"d'];
    expect(computeCacheKeys(base, versions)).toEqual(versions.map((v) => sha(doc(v))));
    expect(computeCacheKeys(base, versions)).toEqual(
      versions.map((templateVersion) => computeCacheKey({ ...base, templateVersion })),
    );
  });

  it('hashes long, nested and non-ASCII prompts exactly as their canonical document', () => {
    const payload = [
      {
        role: 'system',
        content: `Précis — ${'long instructions with "quotes" and \\ slashes\n'.repeat(200)}`,
      },
      {
        role: 'user',
        content: '中文 🙂 [1] first\n[2] second',
        name: undefined,
        extra: [null, undefined, { z: 1, a: [] }],
      },
    ];
    const parts = { ...base, payload, params: { temperature: 0.2, stop: ['\n\n'], top_p: undefined } };
    const doc = canonicalJson({ v: 1, ...parts, templateVersion: 'v9' });
    expect(computeCacheKey({ ...parts, templateVersion: 'v9' })).toBe(
      createHash('sha256').update(doc).digest('hex'),
    );
    expect(JSON.parse(doc).payload[1]).toEqual({
      role: 'user',
      content: '中文 🙂 [1] first\n[2] second',
      extra: [null, null, { a: [], z: 1 }],
    });
  });
});
