import { describe, expect, it } from '@jest/globals';
import type { BooookScoreMetricSpec, SystemSpec } from '../support/precis.js';
import { builtInFamilies, SpecError, validateSpec } from '../support/precis.js';

const valid = {
  name: 'books',
  datasets: [{ name: 'pp', kind: 'text', path: 'book.txt' }],
  systems: [
    { name: 'hier-tr', strategy: 'hierarchical', engine: 'textrank' },
    {
      name: 'inc-gpt',
      strategy: 'incremental',
      model: 'gpt-4o-mini',
      params: { chunkSize: 2048, runningBudget: 900 },
    },
  ],
  metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
};

function problems(raw: unknown): string[] {
  try {
    validateSpec(builtInFamilies, raw, 'spec.yaml');
  } catch (err) {
    if (err instanceof SpecError) return err.problems;
    throw err;
  }
  return [];
}

describe('benchmark spec validation', () => {
  it('refuses names over 100 characters (a 1 MB run name once broke run listings)', () => {
    const huge = 'r'.repeat(1_000_000);
    const found = problems({
      ...valid,
      name: huge,
      datasets: [{ ...valid.datasets[0], name: 'd'.repeat(101) }],
      systems: [{ ...valid.systems[0], name: 's'.repeat(101) }],
    });
    expect(found).toEqual([
      'name: at most 100 characters',
      'datasets[0].name: at most 100 characters',
      'systems[0].name: at most 100 characters',
    ]);
    expect(problems({ ...valid, name: 'r'.repeat(100) })).toEqual([]);
  });

  it('fills defaults', () => {
    const spec = validateSpec(builtInFamilies, valid);
    expect((spec.systems[0] as SystemSpec).params.chunkSize).toBe(2048);
    expect((spec.systems[1] as SystemSpec).params.levelBudgets).toEqual([500]);
    expect((spec.metrics[0] as BooookScoreMetricSpec).batchSize).toBe(10);
    expect(spec.limits.concurrency).toBe(512);
  });

  it("takes the leaderboards' significance level in bootstrap.alpha, between 0 and 1", () => {
    expect(validateSpec(builtInFamilies, { ...valid, bootstrap: { alpha: 0.01 } }).bootstrap).toEqual({
      resamples: 1000,
      alpha: 0.01,
    });
    // Absent, it stays absent (reports use 0.05) so that a spec's hash does not change.
    expect(validateSpec(builtInFamilies, valid).bootstrap).toEqual({ resamples: 1000 });
    expect(problems({ ...valid, bootstrap: { alpha: 1.5 } })).toEqual([
      'bootstrap.alpha: expected a number between 0 and 1 (both excluded), e.g. 0.05',
    ]);
  });

  it('names the path of each problem', () => {
    const bad = structuredClone(valid) as Record<string, unknown> & { systems: Record<string, unknown>[] };
    bad.systems[1]!.params = { chunkSize: 'big', maxRegenerations: 1.5, colour: 'red' };
    expect(problems(bad)).toEqual([
      'systems[1].params.chunkSize: expected integer, received string',
      'systems[1].params.maxRegenerations: expected integer, received number 1.5',
      'systems[1].params: unknown field(s) "colour"',
    ]);
  });

  it('requires exactly one of model or engine, unique system names, and a kind with a path', () => {
    const bad = structuredClone(valid) as Record<string, unknown> & {
      systems: Record<string, unknown>[];
      datasets: Record<string, unknown>[];
    };
    bad.systems[0]!.model = 'gpt-4o-mini';
    bad.systems[1]!.name = 'hier-tr';
    delete bad.datasets[0]!.kind;
    const found = problems(bad);
    expect(found).toContain(
      'datasets[0].kind: a dataset with a path needs its kind (kgds, summeval-op, text, jsonl, persphere, retrieval or qmsum)',
    );
    expect(found).toContain(
      'systems[0]: give exactly one of "model" (a registry model), "engine" (textrank or lead) or "plugin" ({ address: host:port })',
    );
    expect(found.some((p) => p.startsWith('systems[1].name: duplicate system name "hier-tr"'))).toBe(true);
  });

  it('reports missing required fields', () => {
    expect(problems({ name: 'x' })).toEqual([
      'datasets: required (expected array)',
      'systems: required (expected array)',
      'metrics: required (expected array)',
    ]);
  });
});

describe('prompt template overrides', () => {
  it('accepts an override of a known template and rejects unknown ids and placeholders', () => {
    const ok = validateSpec(builtInFamilies, {
      ...valid,
      templateOverrides: { 'book.chunk-summary': { user: 'Summarize in {{budget}} words:\n{{text}}' } },
    });
    expect(ok.templateOverrides?.['book.chunk-summary']?.user).toContain('{{budget}}');
    expect(problems({ ...valid, templateOverrides: { 'book.nope': { user: 'x' } } })[0]).toMatch(
      /^templates\.book\.nope: no such template/,
    );
    expect(
      problems({ ...valid, templateOverrides: { 'book.chunk-summary': { user: '{{text}} {{style}}' } } })[0],
    ).toMatch(/^templates\.book\.chunk-summary: .*unknown placeholder/);
  });
});

describe('secret-looking values in spec errors', () => {
  it('masks a key pasted into a field the message quotes', () => {
    const key = 'sk-live-Q2w3E4r5T6y7U8i9O0pA';
    try {
      validateSpec(
        builtInFamilies,
        { ...valid, metrics: [{ name: 'booookscore', mode: key, judge: { engine: 'heuristic' } }] },
        'spec.yaml',
      );
      throw new Error('expected a SpecError');
    } catch (err) {
      expect(err).toBeInstanceOf(SpecError);
      expect((err as Error).message).not.toContain(key);
      expect((err as Error).message).toContain('metrics[0].mode');
    }
  });
});
