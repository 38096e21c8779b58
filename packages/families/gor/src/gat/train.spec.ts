import { describe, expect, it } from '@jest/globals';
import { GorModel } from './model.js';
import { syntheticGraphs } from './synthetic.js';
import { useBackend } from './tf.js';
import { trainGor } from './train.js';

await useBackend();

describe('GoR training', () => {
  const graphs = syntheticGraphs(4, { chunks: 6, dim: 8, queries: 3, retrieved: 2, seed: 1 });
  const run = (options: Parameters<typeof trainGor>[2]) => {
    const model = new GorModel({ dim: 8, heads: 4, dropout: 0, seed: 3 });
    const losses: number[] = [];
    const report = trainGor(
      model,
      graphs,
      { epochs: 8, batchSize: 2, learningRate: 0.03, ...options },
      (_, l) => losses.push(l),
    );
    const weights = model.exportWeights();
    model.dispose();
    return { report, losses, weights };
  };

  it('lowers the loss, and repeats itself exactly for the same seeds', () => {
    const a = run({});
    expect(a.report).toMatchObject({ epochs: 8, steps: 16 });
    expect(a.losses).toHaveLength(8);
    expect(a.report.lossLast).toBeLessThan(a.report.lossFirst);
    const b = run({});
    expect(b.losses).toEqual(a.losses);
    expect(b.weights).toEqual(a.weights);
  });

  it('trains the ablations: no ranking loss, no in-batch negatives', () => {
    const infoNceOnly = run({ alpha: 0 });
    const own = run({ inBatchNegatives: false });
    expect(infoNceOnly.report.lossLast).toBeLessThan(infoNceOnly.report.lossFirst);
    expect(own.report.lossLast).toBeLessThan(own.report.lossFirst);
    // Fewer negatives in the denominator: a smaller InfoNCE term from the first epoch on.
    expect(own.losses[0]).toBeLessThan(run({}).losses[0]!);
  });
});
