// PerSphere per-query values: one metric_values row per (system, query, measure), their means
// the leaderboard's figures, and two runs compared on one of them.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { PersphereRow } from '@precis/family-persphere';
import { coverAtK, recallAtK } from '@precis/metrics';
import { Bm25Index } from '@precis/retrievers';
import { crossRunLeaderboard } from '../support/precis.js';
import { PERSPHERE_WRITERS, persphereRules } from './persphere-fake.js';
import { type ExecutedRun, type RunHarness, startRunHarness } from './run-harness.js';

const DIR = resolve(import.meta.dirname, '../../../shared/datasets/persphere');
const QUERIES = resolve(DIR, 'theperspective.queries.jsonl');
const DOCUMENTS = resolve(DIR, 'theperspective.documents.jsonl');
const LIMIT = 6;
const dataset = [{ name: 'tp', kind: 'persphere', path: QUERIES, corpus: DOCUMENTS, limit: LIMIT }];
const LEXICAL = 'engine:lexical-perspectives@1 (heuristic)';
const RETRIEVAL = 'offline: top k vs gold evidence';

const jsonl = <T>(file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
type Query = { id: string; title: string; favor_ids: number[]; against_ids: number[] };
const queries = jsonl<Query>(QUERIES).slice(0, LIMIT);
const evidence = (q: Query) => [...q.favor_ids, ...q.against_ids].map(String);

type Value = { system: string; query: string; metric: string; value: number; produced_by: string };
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('PerSphere per-query values', () => {
  let h: RunHarness;
  let offline: ExecutedRun;

  beforeAll(async () => {
    h = await startRunHarness('persphere_samples', { rules: persphereRules, models: PERSPHERE_WRITERS });
    offline = await h.execute({
      name: 'persphere-offline',
      datasets: dataset,
      systems: [
        { name: 'bm25-lead', strategy: 'vanilla', engine: 'lead', params: { retriever: 'bm25', k: 10 } },
        { name: 'golden-lead', strategy: 'vanilla', engine: 'lead', params: { retriever: 'golden' } },
      ],
      metrics: [{ name: 'persphere', judge: { engine: 'lexical' } }],
    });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  const valuesOf = (runId: string): Promise<Value[]> =>
    h.db.query(
      `SELECT mv.system, d.external_id AS query, mv.metric, mv.value, mv.produced_by
         FROM metric_values mv JOIN documents d ON d.id = mv.document_id
        WHERE mv.run_id = $1 ORDER BY mv.system, d.ordinal, mv.metric`,
      [runId],
    );
  const boardOf = async (runId: string): Promise<Map<string, PersphereRow>> => {
    const rows: { system: string; details: PersphereRow }[] = await h.db.query(
      `SELECT system, details FROM metric_values WHERE run_id = $1 AND document_id IS NULL`,
      [runId],
    );
    return new Map(rows.map((r) => [r.system, r.details]));
  };
  const column = (values: Value[], system: string, metric: string) =>
    values.filter((v) => v.system === system && v.metric === metric).map((v) => v.value);

  it("stores each query's Recall@k, Cover@k, Rp@k and Overall, k in the retrieval keys", async () => {
    expect(offline.progress.status).toBe('completed');
    const values = await valuesOf(offline.run.id);
    const metricsOf = (system: string) =>
      [...new Set(values.filter((v) => v.system === system).map((v) => v.metric))].sort();
    expect(metricsOf('bm25-lead')).toEqual([
      'persphere:cover@10',
      'persphere:overall',
      'persphere:recall@10',
      'persphere:rp@10',
    ]);
    expect(metricsOf('golden-lead')).toEqual([
      'persphere:cover@golden',
      'persphere:overall',
      'persphere:recall@golden',
      'persphere:rp@golden',
    ]);
    expect(values).toHaveLength(2 * 4 * LIMIT);
    expect(column(values, 'golden-lead', 'persphere:recall@golden')).toEqual(Array(LIMIT).fill(100));
    expect(column(values, 'golden-lead', 'persphere:cover@golden')).toEqual(Array(LIMIT).fill(100));
    // BM25's top 10 of each query, ranked here as the retriever does, against its evidence.
    const corpus = jsonl<{ id: number; content: string }>(DOCUMENTS).map((d) => ({
      id: String(d.id),
      text: d.content,
    }));
    const bm25 = Bm25Index.build(corpus);
    for (const q of queries) {
      const top = bm25.search(q.title, 10).hits.map((x) => x.id);
      const at = (metric: string) =>
        values.find((v) => v.system === 'bm25-lead' && v.query === q.id && v.metric === metric)!;
      expect(at('persphere:recall@10').value).toBeCloseTo(100 * recallAtK(evidence(q), top, 10), 10);
      const perspectives = evidence(q).map((id) => [id]);
      expect(at('persphere:cover@10').value).toBeCloseTo(100 * coverAtK(perspectives, top, 10), 10);
      expect([at('persphere:recall@10').produced_by, at('persphere:overall').produced_by]).toEqual([
        RETRIEVAL,
        LEXICAL,
      ]);
    }
  });

  it("averages to the leaderboard's Recall@k, Cover@k, Rp@k and Overall@k", async () => {
    const values = await valuesOf(offline.run.id);
    const board = await boardOf(offline.run.id);
    for (const [system, at] of [
      ['bm25-lead', '10'],
      ['golden-lead', 'golden'],
    ]) {
      const p = board.get(system!)!.persphere!;
      expect(mean(column(values, system!, `persphere:recall@${at}`))).toBeCloseTo(p.recall, 10);
      expect(mean(column(values, system!, `persphere:cover@${at}`))).toBeCloseTo(p.cover, 10);
      expect(mean(column(values, system!, `persphere:rp@${at}`))).toBeCloseTo(p.rp, 10);
      expect(mean(column(values, system!, 'persphere:overall'))).toBeCloseTo(p.overall, 10);
    }
  });

  it('names the judge and template versions, and compares two runs on Overall', async () => {
    const model = await h.execute({
      name: 'persphere-models',
      datasets: dataset,
      systems: [
        { name: 'vanilla', strategy: 'vanilla', model: 'sphere', params: { retriever: 'bm25', k: 6 } },
        { name: 'golden', strategy: 'vanilla', model: 'sphere', params: { retriever: 'golden' } },
      ],
      metrics: [{ name: 'persphere', judge: { model: 'judge' } }],
    });
    expect(model.progress.status).toBe('completed');
    const values = await valuesOf(model.run.id);
    const producers = Object.fromEntries(
      values.filter((v) => v.system === 'vanilla').map((v) => [v.metric, v.produced_by]),
    );
    expect(producers).toEqual({
      'persphere:overall': 'model:judge persphere.judge.rating@1',
      'persphere:recall@6': RETRIEVAL,
      'persphere:cover@6': RETRIEVAL,
      'persphere:rp@6': 'model:judge persphere.judge.extract@1 + persphere.judge.entail@1',
    });
    // The judge rates every summary 7 and entails every extracted perspective: Rp@k = Cover@k.
    expect(column(values, 'vanilla', 'persphere:overall')).toEqual(Array(LIMIT).fill(7));
    const cover = column(values, 'vanilla', 'persphere:cover@6');
    const rp = column(values, 'vanilla', 'persphere:rp@6');
    expect(rp).toHaveLength(LIMIT);
    for (const [n, v] of rp.entries()) expect(v).toBeCloseTo(cover[n]!, 10);
    const runs = [offline.run.id, model.run.id];
    // The retrieval keys of the golden systems are shared; those of k = 10 and k = 6 are not.
    const shared = 'persphere:cover@golden, persphere:overall, persphere:recall@golden, persphere:rp@golden';
    await expect(crossRunLeaderboard(h.db, runs)).rejects.toThrow(
      `the runs share several metrics: choose one with --metric (${shared})`,
    );
    await expect(crossRunLeaderboard(h.db, runs, { metric: 'persphere:recall@10' })).rejects.toThrow(
      `metric "persphere:recall@10" is not scored per document in every run; choose one of: ${shared}`,
    );
    const board = await crossRunLeaderboard(h.db, runs, { metric: 'persphere:overall', resamples: 200 });
    expect([board.metric, board.documents, board.entries.length]).toEqual(['persphere:overall', LIMIT, 4]);
    const boards = new Map([
      [offline.run.id, await boardOf(offline.run.id)],
      [model.run.id, await boardOf(model.run.id)],
    ]);
    for (const e of board.entries)
      expect(e.mean).toBeCloseTo(boards.get(e.run.id)!.get(e.system)!.persphere!.overall, 10);
  });
});
