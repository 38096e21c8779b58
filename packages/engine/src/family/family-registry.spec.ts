import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { samplingParams } from '../spec/benchmark-spec.schema.js';
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

describe('FamilyRegistry dataset kinds', () => {
  const withKinds = (
    name: string,
    kinds: BenchmarkFamily['datasetKinds'],
    fits?: string[],
  ): BenchmarkFamily => {
    const f = family(name, `${name}-s`, `${name}-m`, `${name}-k`);
    return { ...f, datasetKinds: kinds, strategies: [{ ...f.strategies![0]!, datasetKinds: fits }] };
  };
  const spec = (datasets: unknown[]) => ({
    name: 'x',
    datasets,
    systems: [{ name: 's', strategy: 'a-s', engine: 'lead' }],
    metrics: [{ name: 'a-m' }],
  });
  const messages = (r: FamilyRegistry, datasets: unknown[]) =>
    r
      .specSchema()
      .safeParse(spec(datasets))
      .error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

  it('builds datasets[].kind and its messages from the registered kinds, in the given order', () => {
    const r = new FamilyRegistry(
      [withKinds('a', [{ name: 'queries', corpus: true }]), withKinds('b', [{ name: 'notes' }])],
      {
        datasetKinds: [{ name: 'plain' }, { name: 'pairs', corpus: true }],
        kindOrder: ['notes', 'queries', 'plain', 'pairs'],
      },
    );
    expect([...r.datasetKinds.keys()]).toEqual(['notes', 'queries', 'plain', 'pairs']);
    expect(messages(r, [{ name: 'd', path: 'd.jsonl' }])).toEqual([
      'datasets.0.kind: a dataset with a path needs its kind (notes, queries, plain or pairs)',
    ]);
    expect(messages(r, [{ name: 'd', kind: 'queries', path: 'q.jsonl' }])).toEqual([
      'datasets.0.corpus: queries and pairs datasets need `corpus` (the documents JSONL) beside `path`; other kinds take none',
    ]);
    expect(messages(r, [{ name: 'd', kind: 'plain', path: 'p.txt', corpus: 'c.jsonl' }])).toHaveLength(1);
    expect(messages(r, [{ name: 'd', kind: 'csv', path: 'p.csv' }])?.[0]).toBe(
      'datasets.0.kind: Invalid option: expected one of "notes"|"queries"|"plain"|"pairs"',
    );
    expect(messages(r, [{ name: 'd', kind: 'pairs', path: 'q.jsonl', corpus: 'c.jsonl' }])).toBeUndefined();
  });

  it('lists the kinds in registration order without an order, one kind without "or"', () => {
    const r = new FamilyRegistry([withKinds('a', [{ name: 'only', corpus: true }])]);
    expect(messages(r, [{ name: 'd', path: 'd.jsonl' }])).toEqual([
      'datasets.0.kind: a dataset with a path needs its kind (only)',
    ]);
    expect(messages(r, [{ name: 'd', kind: 'only', path: 'd.jsonl' }])).toEqual([
      'datasets.0.corpus: only datasets need `corpus` (the documents JSONL) beside `path`; other kinds take none',
    ]);
  });

  it('refuses a kind claimed twice, a strategy taking an unregistered kind and an order that differs', () => {
    expect(
      () => new FamilyRegistry([withKinds('a', [{ name: 'k' }]), withKinds('b', [{ name: 'k' }])]),
    ).toThrow('benchmark family b: dataset kind "k" is already defined by another family');
    expect(
      () => new FamilyRegistry([withKinds('a', [{ name: 'k' }])], { datasetKinds: [{ name: 'k' }] }),
    ).toThrow('dataset kind "k" is given as generic and defined by a family');
    expect(() => new FamilyRegistry([withKinds('a', [], ['csv'])])).toThrow(
      'benchmark family a: strategy "a-s" takes dataset kind "csv", which no loaded family registers',
    );
    expect(
      () => new FamilyRegistry([withKinds('a', [{ name: 'k' }, { name: 'l' }])], { kindOrder: ['l', 'm'] }),
    ).toThrow('the dataset kind order lists each registered kind: "k" is missing, "m" is not registered');
  });
});

describe('FamilyRegistry params', () => {
  const withParams = (name: string, params: z.ZodRawShape): BenchmarkFamily => {
    const f = family(name, `${name}-s`, `${name}-m`, `${name}-k`);
    return { ...f, strategies: [{ ...f.strategies![0]!, params }] };
  };
  const parsedParams = (r: FamilyRegistry, params: Record<string, unknown> = {}) =>
    r.specSchema().parse({
      name: 'x',
      datasets: [{ name: 'd' }],
      systems: [{ name: 's', strategy: 'a-s', engine: 'lead', params }],
      metrics: [{ name: 'a-m' }],
    }).systems[0]!.params;

  it('joins the strategies fields in registration order, engine fields where first listed', () => {
    const r = new FamilyRegistry([
      withParams('a', { size: z.int().default(3), topP: samplingParams.topP }),
      withParams('b', { words: z.int().optional(), size: z.int().default(3) }),
    ]);
    expect(Object.keys(r.params)).toEqual(['size', 'topP', 'words', 'temperature', 'maxTokens']);
    // Every system gets every strategy's defaults, in that order.
    expect(JSON.stringify(parsedParams(r, { words: 4 }))).toBe(
      '{"size":3,"topP":1,"words":4,"temperature":0.5}',
    );
  });

  it('refuses a field declared unlike an earlier strategy or the engine', () => {
    expect(
      () =>
        new FamilyRegistry([
          withParams('a', { size: z.int().default(3) }),
          withParams('b', { size: z.int().default(4) }),
        ]),
    ).toThrow(
      'benchmark family b: strategy "b-s" declares params.size unlike strategy "a-s"; give it the same type, bounds and default, or another name',
    );
    expect(() => new FamilyRegistry([withParams('a', { temperature: z.number().default(1) })])).toThrow(
      'benchmark family a: strategy "a-s" declares params.temperature unlike the engine',
    );
  });
});
