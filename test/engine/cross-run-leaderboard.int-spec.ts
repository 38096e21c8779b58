// Cross-run leaderboards: the systems of two GoR runs on the same QMSum meetings ranked by a
// per-document ROUGE metric, with paired bootstrap tests (Holm-corrected) and shared ranks.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GorRow } from '@precis/family-gor';
import { crossRunBlocks, crossRunLeaderboard, renderBlocks, sectionRows } from '../support/precis.js';
import { type ExecutedRun, type RunHarness, startRunHarness } from './run-harness.js';

const QMSUM = resolve(import.meta.dirname, '../../../shared/datasets/qmsum/test.jsonl');
const dataset = [{ name: 'qm', kind: 'qmsum', path: QMSUM, limit: 5 }];
const rag = (name: string, retriever: string) => ({
  name,
  strategy: 'rag',
  engine: 'textrank',
  params: { retriever },
});

describe('cross-run leaderboards', () => {
  let h: RunHarness;
  let a: ExecutedRun;
  let b: ExecutedRun;

  beforeAll(async () => {
    h = await startRunHarness('cross_run_leaderboard');
    a = await h.execute({
      name: 'a',
      datasets: dataset,
      systems: [rag('bm25', 'bm25'), rag('tfidf', 'tfidf')],
      metrics: [{ name: 'rouge' }],
    });
    b = await h.execute({
      name: 'b',
      datasets: dataset,
      systems: [rag('bm25', 'bm25'), { name: 'window', strategy: 'context-window', engine: 'textrank' }],
      metrics: [{ name: 'rouge' }],
    });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  const rougeL = (r: ExecutedRun, system: string) =>
    sectionRows<GorRow>(r.report, 'gor').find((x) => x.system === system)!.rouge!.rougeL;

  it('asks which metric when the runs share several, naming them', async () => {
    await expect(crossRunLeaderboard(h.db, [a.run.id, b.run.id])).rejects.toThrow(
      'the runs share several metrics: choose one with --metric (rouge1, rouge2, rougeL)',
    );
    await expect(crossRunLeaderboard(h.db, [a.run.id], { metric: 'bleu' })).rejects.toThrow(
      'metric "bleu" is not scored per document in every run; choose one of: rouge1, rouge2, rougeL',
    );
  });

  it('ranks every system of both runs on the shared meetings, ties where no test separates them', async () => {
    const board = await crossRunLeaderboard(h.db, [a.run.id.slice(0, 8), b.run.id], {
      metric: 'rougeL',
      resamples: 500,
    });
    expect([board.metric, board.documents, board.entries.length, board.comparisons.length]).toEqual([
      'rougeL',
      5,
      4,
      6,
    ]);
    // The means are the runs' own ROUGE-L means (all five meetings are shared).
    for (const e of board.entries) {
      const run = e.run.id === a.run.id ? a : b;
      expect(e.mean).toBeCloseTo(rougeL(run, e.system), 10);
      expect(e.producedBy).toBe('rouge-score (max over references)');
    }
    // The same system in both runs summarized the same way: no difference, p = 1.
    const same = board.comparisons.find((c) => c.better.startsWith('bm25@') && c.worse.startsWith('bm25@'))!;
    expect([same.meanDiff, same.p, same.significant]).toEqual([0, 1, false]);
    // A rank is 1 + the entries significantly better than it.
    for (const e of board.entries) {
      const label = `${e.system}@${e.run.id.slice(0, 8)}`;
      expect(e.rank).toBe(1 + board.comparisons.filter((c) => c.significant && c.worse === label).length);
    }
    const text = renderBlocks('Leaderboard', crossRunBlocks(board), 'text');
    expect(text).toContain('rougeL: 4 systems on 5 shared documents');
    expect(text).toContain('paired bootstrap, 500 resamples, Holm-corrected, alpha 0.05');
  });
});
