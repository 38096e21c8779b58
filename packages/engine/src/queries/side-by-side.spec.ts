import { describe, expect, it } from '@jest/globals';
import type { BenchmarkSpec } from '../spec/benchmark-spec.schema.js';
import { sideBySideColumns } from './side-by-side.js';

const systems = (...s: Record<string, unknown>[]) =>
  ({ systems: s }) as unknown as Pick<BenchmarkSpec, 'systems'>;

describe('sideBySideColumns', () => {
  it("keeps the spec's order, and gives a system with no summary its column", () => {
    const spec = systems(
      { name: 'tr', strategy: 'opinion', engine: 'textrank' },
      { name: 'writer', strategy: 'opinion', model: 'm' },
    );
    expect(sideBySideColumns(spec, new Set(['tr']))).toEqual([
      { name: 'tr', strategy: 'opinion' },
      { name: 'writer', strategy: 'opinion' },
    ]);
  });

  it("puts a source's expanded systems where the source stands, by name", () => {
    const spec = systems(
      { name: 'first', strategy: 'opinion', engine: 'lead' },
      { name: 'candidates', source: 'dataset', strategy: 'opinion' },
      { name: 'last', strategy: 'opinion', engine: 'textrank' },
    );
    const found = new Set(['last', 'plansum', 'gpt-4', 'first']);
    expect(sideBySideColumns(spec, found).map((c) => [c.name, c.strategy])).toEqual([
      ['first', 'opinion'],
      ['gpt-4', null],
      ['plansum', null],
      ['last', 'opinion'],
    ]);
  });

  it("keeps a sourced system that keeps its name (KGDS's gold) in its place", () => {
    const spec = systems(
      { name: 'gold', source: 'gold', strategy: 'ebs-aos' },
      { name: 'lead-3', strategy: 'ebs-aos', engine: 'lead' },
    );
    expect(sideBySideColumns(spec, new Set(['lead-3', 'gold'])).map((c) => c.name)).toEqual([
      'gold',
      'lead-3',
    ]);
    // With no summary of its own, a sourced system gets no column.
    expect(sideBySideColumns(spec, new Set(['lead-3'])).map((c) => c.name)).toEqual(['lead-3']);
  });
});
