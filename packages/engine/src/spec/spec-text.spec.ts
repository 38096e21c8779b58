import { describe, expect, it } from '@jest/globals';
import { parseSpecSource, SPEC_MAX_DEPTH, SpecTextError, specDepthProblem } from './spec-text.js';

function problemOf(text: string, format: 'json' | 'yaml'): string {
  try {
    parseSpecSource(text, format);
  } catch (err) {
    if (err instanceof SpecTextError) return err.problem;
    throw err;
  }
  return 'no problem';
}

const FIX = 'a benchmark spec needs only a few levels: flatten it';
const nested = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;
// An array `n` levels deep, built without recursion.
function deepValue(n: number, leaf: unknown = 1): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < n; i++) v = [v];
  return v;
}

describe('spec text', () => {
  it('refuses a spec text over 128 KiB before parsing it, whatever its format', () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `key${i}: ${i}`).join('\n');
    for (const format of ['yaml', 'json'] as const)
      expect(problemOf(keys, format)).toBe(
        `${keys.length} characters long, over the limit of 131072; a benchmark spec needs only a few kilobytes: split it into several specs`,
      );
  });

  it('reads JSON and YAML specs of ordinary depth', () => {
    const yaml = 'name: x\nsystems:\n  - name: a\n    params: { levelBudgets: [60, 120] }\n';
    expect(parseSpecSource(yaml, 'yaml')).toEqual({
      name: 'x',
      systems: [{ name: 'a', params: { levelBudgets: [60, 120] } }],
    });
    expect(parseSpecSource('{"name":"x","a":{"b":[1]}}', 'json')).toEqual({ name: 'x', a: { b: [1] } });
  });

  it('takes JSON exactly 64 levels deep and refuses 65, and 5,000, at the bracket that goes too deep', () => {
    expect(parseSpecSource(nested(SPEC_MAX_DEPTH), 'json')).toEqual(deepValue(SPEC_MAX_DEPTH));
    expect(problemOf(nested(SPEC_MAX_DEPTH + 1), 'json')).toBe(
      `nested more than 64 levels deep (line 1, column 65); ${FIX}`,
    );
    expect(problemOf(`{"name": "x",\n "systems": ${nested(5000)}}`, 'json')).toBe(
      `nested more than 64 levels deep (line 2, column 76); ${FIX}`,
    );
    // Brackets inside strings do not count.
    expect(parseSpecSource(`{"name": "${'['.repeat(500)}"}`, 'json')).toEqual({ name: '['.repeat(500) });
    expect(problemOf('{"name": ', 'json')).toMatch(/^not valid JSON: /);
  });

  it('refuses YAML nested past the bound in flow, block and indented form, before parsing it', () => {
    expect(problemOf(`name: x\nsystems: ${nested(20_000)}\n`, 'yaml')).toBe(
      `nested more than 64 levels deep (line 2, column 74); ${FIX}`,
    );
    expect(problemOf(`${'- '.repeat(20_000)}x\n`, 'yaml')).toBe(
      `nested more than 64 levels deep (line 1, column 131); ${FIX}`,
    );
    const indented = Array.from({ length: 400 }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
    expect(problemOf(`${indented} 1\n`, 'yaml')).toBe(
      `nested more than 64 levels deep (line 66, column 66); ${FIX}`,
    );
    // At the bound itself, block sequences are read whole; one more level is refused.
    expect(parseSpecSource(`${'- '.repeat(SPEC_MAX_DEPTH)}x\n`, 'yaml')).toEqual(
      deepValue(SPEC_MAX_DEPTH, 'x'),
    );
    expect(problemOf(`${'- '.repeat(SPEC_MAX_DEPTH + 1)}x\n`, 'yaml')).toMatch(
      /^nested more than 64 levels deep/,
    );
  });

  it('refuses YAML whose aliases nest deeper than its text', () => {
    // Each anchor holds, 20 levels down, an alias of the one before: 5 lines, 81 levels.
    const chain = Array.from({ length: 5 }, (_, i) =>
      i === 0 ? 'a0: &a0 1' : `a${i}: &a${i} ${nested(20).replace('1', `*a${i - 1}`)}`,
    );
    expect(problemOf(`${chain.join('\n')}\n`, 'yaml')).toBe(`nested more than 64 levels deep; ${FIX}`);
    expect(problemOf(`${chain.slice(0, 4).join('\n')}\n`, 'yaml')).toBe('no problem');
    expect(problemOf('a: [1\n', 'yaml')).toMatch(/^not valid YAML at line 2: /);
  });

  it('measures a parsed value without recursion', () => {
    expect(specDepthProblem(deepValue(SPEC_MAX_DEPTH))).toBeNull();
    expect(specDepthProblem(deepValue(100_000))).toBe(`nested more than 64 levels deep; ${FIX}`);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(specDepthProblem(cyclic)).toBe(`nested more than 64 levels deep; ${FIX}`);
  });
});
