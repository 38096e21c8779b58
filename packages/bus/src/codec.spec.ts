import { describe, expect, it } from '@jest/globals';
import { cloneData, decodeData, encodeData } from './codec.js';

describe('codec', () => {
  it('round-trips JSON and bytes, marking the encoding', () => {
    const json = encodeData({ a: [1, 'two', null] });
    expect(json.encoding).toBe('json');
    expect(decodeData(json.body, json.encoding)).toEqual({ a: [1, 'two', null] });
    const bin = encodeData(new Uint8Array([9, 8]));
    expect(bin.encoding).toBe('bin');
    expect(decodeData(bin.body, 'bin')).toEqual(new Uint8Array([9, 8]));
  });

  it('decodes an empty JSON body as null and copies data deeply', () => {
    expect(decodeData(new Uint8Array(), 'json')).toBeNull();
    const original = { nested: { n: 1 } };
    const copy = cloneData(original) as { nested: { n: number } };
    copy.nested.n = 2;
    expect(original.nested.n).toBe(1);
  });
});
