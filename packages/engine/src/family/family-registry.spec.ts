import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import type { BenchmarkFamily } from './benchmark-family.js';
import { FamilyRegistry } from './family-registry.js';

const family = (name: string, strategy: string, metric: string, kind: string): BenchmarkFamily => ({
  name,
  strategies: [{ name: strategy, plan: async () => ({ kind: 'summary', text: '', finalStep: 'x' }) }],
  metrics: [
    {
      name: metric,
      schema: z.object({ name: z.literal(metric) }).strict(),
      open: async () => ({ tasksFor: () => [] }),
    },
  ],
  taskKinds: [{ kind, stage: 'verify', handle: async () => ({ result: {} }) }],
});

describe('FamilyRegistry', () => {
  it('indexes every part of every family by name', () => {
    const r = new FamilyRegistry([family('a', 's1', 'm1', 'k1'), family('b', 's2', 'm2', 'k2')]);
    expect([...r.strategies.keys()]).toEqual(['s1', 's2']);
    expect([...r.metrics.keys()]).toEqual(['m1', 'm2']);
    expect(r.taskKind('k2')?.stage).toBe('verify');
    expect(r.taskKind('nope')).toBeUndefined();
  });

  it('refuses a name two families claim, naming the family and the part', () => {
    expect(() => new FamilyRegistry([family('a', 's', 'm1', 'k1'), family('b', 's', 'm2', 'k2')])).toThrow(
      'benchmark family b: strategy "s" is already defined by another family',
    );
    expect(() => new FamilyRegistry([family('a', 's1', 'm', 'k1'), family('b', 's2', 'm', 'k2')])).toThrow(
      'benchmark family b: metric "m" is already defined by another family',
    );
    expect(() => new FamilyRegistry([])).toThrow('no benchmark family is loaded');
  });

  it('builds the spec schema from the loaded parts: an unknown strategy names the known ones', () => {
    const r = new FamilyRegistry([family('a', 'first', 'm', 'k')]);
    const spec = {
      name: 'x',
      datasets: [{ name: 'd' }],
      systems: [{ name: 's', strategy: 'hierarchical', engine: 'lead' }],
      metrics: [{ name: 'm' }],
    };
    const parsed = r.specSchema().safeParse(spec);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['systems', 0, 'strategy'] });
    expect(parsed.error?.issues[0]?.message).toContain('"first"');
    expect(
      r.specSchema().safeParse({ ...spec, systems: [{ ...spec.systems[0], strategy: 'first' }] }).success,
    ).toBe(true);
  });
});
