import { describe, expect, it } from '@jest/globals';
import { validateSpec } from '@precis/engine';
import { builtInFamilies } from '@precis/families';
import { resolveSpecPaths } from './create-run.usecase.js';

describe('resolveSpecPaths', () => {
  it('resolves relative dataset paths against the base dir and drops the models file', () => {
    const spec = validateSpec(builtInFamilies(), {
      name: 'x',
      models: 'models.yaml',
      datasets: [
        { name: 'a', kind: 'text', path: 'data/a.md' },
        { name: 'b', kind: 'text', path: '/abs/b.md' },
        { name: 'c' },
      ],
      systems: [{ name: 's', strategy: 'hierarchical', engine: 'textrank', params: { chunkSize: 200 } }],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    });
    const out = resolveSpecPaths(spec, '/specs/here');
    expect(out.models).toBeUndefined();
    expect(out.datasets.map((d) => d.path)).toEqual(['/specs/here/data/a.md', '/abs/b.md', undefined]);
  });
});
