import { describe, expect, it } from '@jest/globals';
import { FamilyRegistry, SpecError, validateSpec } from '@precis/engine';
import { opinionFamily } from '../opinion-family.js';
import { type DimensionsMetricSpec, judgeTemperature } from './dimensions-spec.js';

// The opinion family alone: its strategy, dataset systems and judges make a whole spec.
const builtInFamilies = new FamilyRegistry([opinionFamily]);

const base = {
  name: 'opinion',
  datasets: [{ name: 'sop', kind: 'summeval-op', path: 'summeval-op.jsonl' }],
  systems: [
    { name: 'candidates', source: 'dataset' },
    { name: 'tr', strategy: 'opinion', engine: 'textrank' },
  ],
  metrics: [{ name: 'dimensions', family: 'op-i', judge: { model: 'judge' } }],
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

describe('opinion specs: dataset systems and dimension judges', () => {
  it('fills the judge defaults (all 7 dimensions, one sample at temperature 0)', () => {
    const spec = validateSpec(builtInFamilies, base);
    const m = spec.metrics[0] as DimensionsMetricSpec;
    expect(m.dimensions).toHaveLength(7);
    expect(m).toMatchObject({ samples: 1, logprobs: false, maxAttempts: 3 });
    expect(judgeTemperature(m)).toBe(0);
    expect(judgeTemperature({ ...m, samples: 20 })).toBe(0.7);
    expect(judgeTemperature({ ...m, samples: 20, temperature: 1 })).toBe(1);
    expect(spec.systems[0]).toEqual({ name: 'candidates', source: 'dataset', strategy: 'dataset' });
  });

  it('names the path of each problem', () => {
    const bad = structuredClone(base) as unknown as {
      systems: Record<string, unknown>[];
      metrics: Record<string, unknown>[];
    };
    bad.systems[0]!.only = [];
    bad.systems[0]!.engine = 'textrank';
    bad.metrics[0]!.family = 'rouge';
    bad.metrics[0]!.samples = 1.5;
    bad.metrics[0]!.dimensions = ['fluency', 'wit'];
    const found = problems(bad);
    expect(found).toContain('systems[0].only: Too small: expected array to have >=1 items');
    expect(found.some((p) => p.startsWith('systems[0].engine:'))).toBe(true);
    expect(found.some((p) => p.startsWith('metrics[0].family:'))).toBe(true);
    expect(found).toContain('metrics[0].samples: expected integer, received number 1.5');
    expect(found.some((p) => p.startsWith('metrics[0].dimensions[1]:'))).toBe(true);
  });

  it('allows one dimensions metric per run', () => {
    const two = { ...base, metrics: [...base.metrics, { ...base.metrics[0], family: 'g-eval' }] };
    expect(problems(two)).toEqual([
      'metrics[1].name: only one "dimensions" metric per run (also metrics[0]); compare judges with one run each',
    ]);
  });
});
