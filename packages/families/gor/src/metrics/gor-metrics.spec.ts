import { describe, expect, it } from '@jest/globals';
import type { BenchmarkSpec, SettledSummary } from '@precis/engine/family';
import { pairwiseMetric, pairwiseTaskId, rougeMetric } from './gor-metrics.js';
import { pairwiseTaskIdsOf } from './pairwise-task.js';

const judge = { model: 'm', temperature: 0 };
// Four GoR systems and one that is not; the pairwise metric sits at index 1 (after rouge).
const spec = (pairwise: Record<string, unknown>) =>
  ({
    name: 's',
    datasets: [{ name: 'qmsum', kind: 'qmsum' }],
    systems: [
      { name: 'gor', strategy: 'gor', engine: 'textrank', params: {} },
      { name: 'tr', strategy: 'thought-retriever', engine: 'textrank', params: {} },
      { name: 'cw', strategy: 'context-window', engine: 'textrank', params: {} },
      { name: 'bm25', strategy: 'rag', engine: 'textrank', params: {} },
      { name: 'plain', strategy: 'incremental', model: 'x', params: {} },
    ],
    metrics: [
      { name: 'rouge', stemmer: true },
      { name: 'gor-pairwise', judge, baseline: 'bm25', maxAttempts: 3, ...pairwise },
    ],
  }) as unknown as BenchmarkSpec;
const summary = (system: string, documentId: string): SettledSummary => ({
  id: `run1:${system}:${documentId}`,
  system,
  documentId,
  text: 'A summary.',
});
const tasksFor = async (s: BenchmarkSpec, summaries: SettledSummary[]) =>
  (await pairwiseMetric.open({} as never, 'run1', s)).tasksFor(summaries);

describe('pairwise metric planning', () => {
  const scoped = spec({ systems: ['gor', 'cw'] });

  it("plans one 'baseline' task (batch 1) per compared system when the baseline's summary settles", async () => {
    expect(await tasksFor(scoped, [summary('bm25', 'doc1')])).toEqual([
      {
        id: 'run1:verify:gor:doc1:gor-pairwise.1:1',
        runId: 'run1',
        stage: 'verify',
        kind: 'gor-pairwise',
        payload: {
          type: 'gor-pairwise',
          system: 'gor',
          baseline: 'bm25',
          documentId: 'doc1',
          metricIndex: 1,
        },
      },
      {
        id: 'run1:verify:cw:doc1:gor-pairwise.1:1',
        runId: 'run1',
        stage: 'verify',
        kind: 'gor-pairwise',
        payload: { type: 'gor-pairwise', system: 'cw', baseline: 'bm25', documentId: 'doc1', metricIndex: 1 },
      },
    ]);
  });

  it("plans the compared system's own task (batch 0) when its summary settles", async () => {
    const tasks = await tasksFor(scoped, [summary('cw', 'doc2')]);
    expect(tasks.map((t) => [t.id, t.payload])).toEqual([
      [
        'run1:verify:cw:doc2:gor-pairwise.1:0',
        { type: 'gor-pairwise', system: 'cw', baseline: 'bm25', documentId: 'doc2', metricIndex: 1 },
      ],
    ]);
  });

  it("plans nothing for systems outside the metric's list or not GoR", async () => {
    expect(await tasksFor(scoped, [summary('tr', 'doc1'), summary('plain', 'doc1')])).toEqual([]);
  });

  it('compares every GoR system but the baseline when the metric names none', async () => {
    const tasks = await tasksFor(spec({}), [summary('bm25', 'doc1'), summary('plain', 'doc1')]);
    expect(tasks.map((t) => t.id)).toEqual([
      'run1:verify:gor:doc1:gor-pairwise.1:1',
      'run1:verify:tr:doc1:gor-pairwise.1:1',
      'run1:verify:cw:doc1:gor-pairwise.1:1',
    ]);
  });

  it("gives both sides' ids of a pair, system first", () => {
    expect(pairwiseTaskId('r', 'gor', 'd', 2, 'system')).toBe('r:verify:gor:d:gor-pairwise.2:0');
    expect(pairwiseTaskIdsOf('r', 'gor', 'd', 2)).toEqual([
      'r:verify:gor:d:gor-pairwise.2:0',
      'r:verify:gor:d:gor-pairwise.2:1',
    ]);
  });
});

describe('rouge metric', () => {
  it('plans no tasks (the scorer computes ROUGE)', async () => {
    const planning = await rougeMetric.open({} as never, 'run1', spec({}));
    expect(planning.tasksFor([summary('gor', 'doc1')])).toEqual([]);
  });
});
