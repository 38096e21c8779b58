// PerSphere runs through the engine (PostgreSQL, in-process bus): retrieval, offline systems
// judged by the lexical engine, and model systems summarizing and judged through the fake server.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { macroF1, type PersphereRow } from '@precis/family-persphere';
import { meanCoverAtK, meanRecallAtK } from '@precis/metrics';
import { Bm25Index } from '@precis/retrievers';
import { builtInFamilies, renderRunReport, sectionRows, validateSpec } from '../support/precis.js';
import { PERSPHERE_WRITERS, persphereRules } from './persphere-fake.js';
import { type RunHarness, startRunHarness } from './run-harness.js';

const DIR = resolve(import.meta.dirname, '../../../shared/datasets/persphere');
const QUERIES = resolve(DIR, 'theperspective.queries.jsonl');
const DOCUMENTS = resolve(DIR, 'theperspective.documents.jsonl');
const LIMIT = 6;
const dataset = [{ name: 'tp', kind: 'persphere', path: QUERIES, corpus: DOCUMENTS, limit: LIMIT }];

const jsonl = <T>(file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
type Query = { title: string; favor_ids: number[]; against_ids: number[] };
const queries = jsonl<Query>(QUERIES).slice(0, LIMIT);
const evidence = (q: Query) => [...q.favor_ids, ...q.against_ids].map(String);

describe('PerSphere runs', () => {
  let h: RunHarness;

  beforeAll(async () => {
    h = await startRunHarness('persphere_runs', {
      rules: persphereRules,
      models: PERSPHERE_WRITERS,
      embeddings: ['embed'],
    });
  });

  afterAll(async () => {
    await h?.close();
  });

  const rowsOf = (r: Awaited<ReturnType<RunHarness['execute']>>) =>
    sectionRows<PersphereRow>(r.report, 'persphere');

  it('retrieves with BM25 as the library does and scores the golden documents 100% recall offline', async () => {
    const r = await h.execute({
      name: 'persphere-offline',
      datasets: dataset,
      systems: [
        { name: 'bm25-lead', strategy: 'vanilla', engine: 'lead', params: { retriever: 'bm25', k: 10 } },
        { name: 'golden-lead', strategy: 'vanilla', engine: 'lead', params: { retriever: 'golden' } },
        {
          name: 'dense-lead',
          strategy: 'vanilla',
          engine: 'lead',
          params: { retriever: 'dense:embed', k: 10 },
        },
      ],
      metrics: [{ name: 'persphere', judge: { engine: 'lexical' } }],
    });
    expect(r.progress.status).toBe('completed');
    const rows = rowsOf(r);
    const docs = jsonl<{ id: number; content: string }>(DOCUMENTS).map((d) => ({
      id: String(d.id),
      text: d.content,
    }));
    const bm25 = Bm25Index.build(docs);
    const ranked = queries.map((q) => ({
      relevant: evidence(q),
      perspectiveEvidence: evidence(q).map((id) => [id]),
      ranked: bm25.search(q.title, 10).hits.map((x) => x.id),
    }));
    const lead = rows.find((x) => x.system === 'bm25-lead')!;
    expect(lead.persphere!.recall).toBeCloseTo(100 * meanRecallAtK(ranked, 10).value, 10);
    expect(lead.persphere!.cover).toBeCloseTo(100 * meanCoverAtK(ranked, 10).value, 10);
    const golden = rows.find((x) => x.system === 'golden-lead')!;
    expect([golden.persphere!.recall, golden.persphere!.cover, golden.samples]).toEqual([100, 100, LIMIT]);
    expect(golden.judge).toBe('engine:lexical-perspectives@1 (heuristic)');
    expect(golden.persphere!.overall).toBeGreaterThanOrEqual(1);
    expect(golden.persphere!.overall).toBeLessThanOrEqual(10);
    // Dense retrieval through /v1/embeddings: the corpus once (shared index, no run), each query
    // embedded and ledgered under its run and retrieve task.
    expect(rows.find((x) => x.system === 'dense-lead')!.status).toBe('complete');
    const calls: { run: boolean; n: string }[] = await h.db.query(
      `SELECT run_id IS NOT NULL AS run, COUNT(*) AS n FROM llm_calls WHERE model = 'embed' GROUP BY 1 ORDER BY 1`,
    );
    expect(calls.map((c) => [c.run, Number(c.n)])).toEqual([
      [false, Math.ceil(4107 / 64)],
      [true, LIMIT],
    ]);
  });

  it('runs vanilla, HierSphere and golden systems on a model, re-asking a malformed summary', async () => {
    const r = await h.execute({
      name: 'persphere-models',
      seed: 3,
      datasets: dataset,
      systems: [
        { name: 'vanilla', strategy: 'vanilla', model: 'sphere', params: { retriever: 'bm25', k: 6 } },
        {
          name: 'hier',
          strategy: 'hiersphere',
          model: 'sphere',
          params: { retriever: 'tfidf', k: 6, agents: 2 },
        },
        {
          name: 'flaky',
          strategy: 'vanilla',
          model: 'sphere-flaky',
          params: { retriever: 'bm25', k: 6, order: 'random' },
        },
        { name: 'golden', strategy: 'vanilla', model: 'sphere', params: { retriever: 'golden' } },
        {
          name: 'refuses',
          strategy: 'vanilla',
          model: 'sphere-refuses',
          params: { retriever: 'bm25', k: 6 },
        },
      ],
      metrics: [{ name: 'persphere', judge: { model: 'judge' } }],
    });
    expect(r.progress.status).toBe('completed-with-failures');
    const rows = rowsOf(r);
    // The judge rates 7 and entails everything, so Rp@k = Cover@k; stance says claim 1 and
    // reference says yes every time.
    const gold = queries.flatMap((q) => [...q.favor_ids.map(() => 1), ...q.against_ids.map(() => 2)]);
    const refs = queries.flatMap((q) => evidence(q).flatMap(() => [true, false]));
    for (const name of ['vanilla', 'hier', 'flaky', 'golden']) {
      const row = rows.find((x) => x.system === name)!;
      expect([name, row.status, row.samples]).toEqual([name, 'complete', LIMIT]);
      expect(row.persphere!.overall).toBe(7);
      expect(row.persphere!.rp).toBeCloseTo(row.persphere!.cover, 10);
      expect(row.persphere!.stanceF1).toBeCloseTo(
        100 *
          macroF1(
            gold,
            gold.map(() => 1),
          ),
        10,
      );
      expect(row.persphere!.referenceF1).toBeCloseTo(
        100 *
          macroF1(
            refs,
            refs.map(() => true),
          ),
        10,
      );
    }
    expect(rows.find((x) => x.system === 'golden')!.persphere!.cover).toBe(100);
    const refused = rows.find((x) => x.system === 'refuses')!;
    expect([refused.persphere, refused.rank, refused.status]).toEqual([
      null,
      null,
      `failed: ${LIMIT} of ${LIMIT} summaries failed`,
    ]);
    const [reasks] = await h.db.query(
      `SELECT COUNT(*) AS n FROM llm_calls WHERE run_id = $1 AND model = 'sphere-flaky' AND template_version LIKE '%#reask-1'`,
      [r.run.id],
    );
    expect(Number(reasks.n)).toBe(LIMIT);
    const md = renderRunReport(r.report, 'md');
    expect(md).toContain(
      '## PerSphere, ranked by Overall@k [persphere.0]\n\n| rank | system | summarizer | strategy | retriever | k | Overall@k |',
    );
  });

  it('refuses an unknown retriever in a spec, naming the path and the choices', () => {
    expect(() =>
      validateSpec(builtInFamilies, {
        name: 'bad',
        datasets: dataset,
        systems: [{ name: 's', strategy: 'vanilla', engine: 'lead', params: { retriever: 'bm99' } }],
        metrics: [{ name: 'persphere', judge: { engine: 'lexical' } }],
      }),
    ).toThrow(
      'systems[0].params.retriever: unknown retriever "bm99": choose one of bm25, tfidf, lsa, dense:<embedding model>, rrf:<a>+<b>[+<c>...], or golden',
    );
  });
});
