import { describe, expect, it } from '@jest/globals';
import { parseFaultSpec } from './fault-spec.js';
import { parseRules } from './rules-file.js';

describe('CLI fault specs', () => {
  it('parses kind, count and Retry-After', () => {
    expect(parseFaultSpec('rate-limit:2@1.5')).toEqual({
      fault: { kind: 'rate-limit', retryAfterSeconds: 1.5 },
      count: 2,
    });
    expect(parseFaultSpec('rate-limit')).toEqual({
      fault: { kind: 'rate-limit', retryAfterSeconds: 1 },
      count: 1,
    });
    expect(parseFaultSpec('hang:3')).toEqual({ fault: { kind: 'hang' }, count: 3 });
  });

  it('rejects unknown kinds and misplaced Retry-After', () => {
    expect(() => parseFaultSpec('explode')).toThrow(/kind one of rate-limit/);
    expect(() => parseFaultSpec('hang@2')).toThrow(/only applies to rate-limit/);
  });
});

describe('rules files', () => {
  it('compiles regexes with flags and keeps replies', () => {
    const [rule] = parseRules([
      { model: { regex: '^gpt' }, match: 'SUMMARY', flags: 'i', reply: 'ok', latencyMs: 5 },
    ]);
    expect(rule?.model).toBeInstanceOf(RegExp);
    expect(rule?.match?.test('write a summary')).toBe(true);
    expect(rule).toMatchObject({ reply: 'ok', latencyMs: 5 });
  });

  it('names the rule and field that is wrong', () => {
    expect(() => parseRules({})).toThrow('rules: expected a JSON array of rules');
    expect(() => parseRules([{ reply: 'a' }, { reply: 3 }], 'r.json')).toThrow(
      'r.json[1].reply: expected a string, { "content": "..." } or { "template": "..." }',
    );
    expect(() => parseRules([{ match: '(', reply: 'a' }])).toThrow(/rules\[0\]\.match: invalid regex/);
  });
});
