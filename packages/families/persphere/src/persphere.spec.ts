import { describe, expect, it } from '@jest/globals';
import { persphereRow } from './score/persphere-row.js';
import { orderDocuments } from './summary/document-order.js';
import { splitAmong } from './summary/persphere-strategy.js';

describe('PerSphere planning', () => {
  it('orders documents ranked, reversed or by a seeded shuffle', () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    expect(orderDocuments(ids, 'reversed', 's')).toEqual(['e', 'd', 'c', 'b', 'a']);
    const shuffled = orderDocuments(ids, 'random', '7:doc');
    expect(shuffled).toEqual(orderDocuments(ids, 'random', '7:doc'));
    expect(shuffled).not.toEqual(ids);
    expect([...shuffled].sort()).toEqual(ids);
  });
  it('splits k documents among m agents, no agent empty', () => {
    expect(splitAmong(['1', '2', '3', '4', '5'], 2)).toEqual([
      ['1', '2'],
      ['3', '4', '5'],
    ]);
    expect(splitAmong(['1', '2'], 4)).toEqual([['1'], ['2']]);
  });
});

describe('PerSphere row', () => {
  const sample = (order: number, retrieved: string[], rating: number) => ({
    order,
    relevant: ['a', 'b'],
    perspectiveEvidence: [['a'], ['b']],
    retrieved,
    rating,
    rpEntailed: [true, false],
    stance: [
      { gold: 1 as const, predicted: 1 as const },
      { gold: 2 as const, predicted: 1 as const },
    ],
    reference: [
      { gold: true, predicted: true },
      { gold: false, predicted: true },
    ],
  });
  const head = {
    system: 's',
    summarizer: 'engine:lead',
    strategy: 'vanilla',
    metric: 'persphere.0',
    judge: 'j',
    retriever: 'bm25',
    k: 1,
  };
  const work = { summaries: { expected: 2, failed: 0 }, judgments: { expected: 8, failed: 0 } };
  it('averages per query, pools the sub-task labels and withholds numbers when work failed', () => {
    const row = persphereRow(head, [sample(0, ['a', 'x'], 6), sample(1, ['x', 'b'], 8)], work, 1, {
      resamples: 100,
      seed: 1,
    });
    // Recall@1: query 0 finds a (1/2), query 1 nothing -> 25%; Rp: 1 of 2 each -> 50%.
    expect(row.persphere).toEqual({
      retriever: 'bm25',
      k: 1,
      recall: 25,
      cover: 25,
      overall: 7,
      rp: 50,
      stanceF1: 100 * ((2 / 3 + 0) / 2),
      referenceF1: 100 * ((2 / 3 + 0) / 2),
    });
    expect(row.retrievalWarnings).toBe(1);
    const failed = persphereRow(
      head,
      [sample(0, ['a'], 6)],
      { ...work, judgments: { expected: 8, failed: 4 } },
      0,
      {
        resamples: 100,
        seed: 1,
      },
    );
    expect([failed.persphere, failed.status]).toEqual([null, 'incomplete: 4 of 8 judgments failed']);
  });
});
