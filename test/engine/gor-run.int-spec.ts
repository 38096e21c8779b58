// GoR runs through the engine (PostgreSQL, in-process bus): offline systems scored by ROUGE
// against QMSum's references, trained weights reused by a re-run, and model systems (simulation,
// RAG responses, summaries, the pairwise judge) through the fake server.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type GorRow, gorTrace } from '@precis/family-gor';
import { RougeScorer } from '@precis/metrics';
import { builtInFamilies, renderRunReport, sectionRows, validateSpec } from '../support/precis.js';
import { GOR_WRITERS, gorRules } from './gor-fake.js';
import { type ExecutedRun, type RunHarness, startRunHarness } from './run-harness.js';

const QMSUM = resolve(import.meta.dirname, '../../../shared/datasets/qmsum/test.jsonl');
const LIMIT = 2;
const dataset = [{ name: 'qm', kind: 'qmsum', path: QMSUM, limit: LIMIT }];
// Small enough for a test: 6 questions per meeting, 20 epochs.
const small = { queries: 6, epochs: 20 };
const references = readFileSync(QMSUM, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .slice(0, LIMIT)
  .map((l) =>
    (JSON.parse(l) as { general_query_list: { answer: string }[] }).general_query_list.map((q) => q.answer),
  );

const offline = {
  name: 'gor-offline',
  seed: 7,
  datasets: dataset,
  systems: [
    { name: 'gor', strategy: 'gor', engine: 'textrank', params: small },
    { name: 'gor-untrained', strategy: 'gor', engine: 'textrank', params: { ...small, training: false } },
    { name: 'bm25', strategy: 'rag', engine: 'textrank', params: { retriever: 'bm25' } },
    { name: 'window', strategy: 'context-window', engine: 'textrank', params: { contextTokens: 2048 } },
    {
      name: 'thought',
      strategy: 'thought-retriever',
      engine: 'textrank',
      params: { ...small, retriever: 'tfidf' },
    },
  ],
  metrics: [{ name: 'rouge' }],
};

describe('GoR runs', () => {
  let h: RunHarness;

  beforeAll(async () => {
    h = await startRunHarness('gor_runs', { rules: gorRules, models: GOR_WRITERS, embeddings: ['embed'] });
  });

  afterAll(async () => {
    await h?.close();
  });

  const rowsOf = (r: ExecutedRun) => sectionRows<GorRow>(r.report, 'gor');
  const row = (r: ExecutedRun, system: string) => rowsOf(r).find((x) => x.system === system)!;

  // Each summary's ROUGE against its meeting's references, computed here from the stored text.
  async function expectedRouge(r: ExecutedRun, system: string) {
    const rows: { text: string; ordinal: number }[] = await h.db.query(
      `SELECT s.text, d.ordinal FROM summaries s JOIN documents d ON d.id = s.document_id
        WHERE s.run_id = $1 AND s.system = $2 ORDER BY d.ordinal`,
      [r.run.id, system],
    );
    const scorer = new RougeScorer({ types: ['rouge1', 'rouge2', 'rougeL'], useStemmer: true });
    const scores = rows.map((x) => scorer.scoreMulti(references[x.ordinal]!, x.text));
    const mean = (k: string) => (100 * scores.reduce((a, s) => a + s[k]!.fmeasure, 0)) / scores.length;
    return { rouge1: mean('rouge1'), rouge2: mean('rouge2'), rougeL: mean('rougeL') };
  }

  it('scores offline systems by ROUGE and reuses trained weights on a re-run', async () => {
    const first = await h.execute(offline);
    expect(first.progress.status).toBe('completed');
    for (const system of ['gor', 'gor-untrained', 'bm25', 'window', 'thought']) {
      const r = row(first, system);
      expect([system, r.status, r.samples]).toEqual([system, 'complete', LIMIT]);
      const want = await expectedRouge(first, system);
      for (const k of ['rouge1', 'rouge2', 'rougeL'] as const) expect(r.rouge![k]).toBeCloseTo(want[k], 10);
    }
    const trained = row(first, 'gor').training!;
    expect([trained.graphs, trained.epochs, trained.reused]).toEqual([LIMIT, 20, false]);
    expect(trained.lossLast).toBeLessThan(trained.lossFirst);
    expect(row(first, 'gor-untrained').training).toBeNull();
    expect(row(first, 'bm25').ranker).toBe('bm25');
    expect(row(first, 'window').ranker).toBe('first 2048 tokens');
    // One model for the system, trained on both meetings' graphs.
    const [models] = await h.db.query('SELECT COUNT(*) AS n FROM gor_models');
    expect(Number(models.n)).toBe(1);
    // Same seed, same numbers: the re-run finds the stored weights and trains nothing.
    const again = await h.execute(offline);
    expect(rowsOf(again).map((x) => [x.system, x.rouge])).toEqual(
      rowsOf(first).map((x) => [x.system, x.rouge]),
    );
    expect(row(again, 'gor').training!.reused).toBe(true);
    expect(row(again, 'gor').training!.lossLast).toBe(trained.lossLast);
    // The trace of a meeting: each system's summary, its questions and the nodes it read.
    const [doc] = await h.db.query(`SELECT id FROM documents WHERE external_id = 'meeting-1'`);
    const trace = await gorTrace(h.db, first.run, doc.id);
    const nodes = trace.find((b) => b.key === 'trace.gor.nodes')!;
    expect(nodes.table!.rows).toHaveLength(6);
    expect(trace.find((b) => b.key === 'trace.gor.queries')!.list).toHaveLength(6);
    expect(trace.find((b) => b.key === 'trace.bm25.nodes')!.notes).toEqual([
      'Ranked by bm25; the summary read these nodes.',
    ]);
    const md = renderRunReport(first.report, 'md');
    expect(md).toContain(
      '## GoR (ROUGE), ranked by ROUGE-L % [rouge.0]\n\n| rank | system | summarizer | strategy | ranker | ROUGE-1 % |',
    );
  }, 120_000);

  it('runs model systems with the pairwise judge and counts a refusing writer as failed', async () => {
    const r = await h.execute({
      name: 'gor-models',
      seed: 3,
      datasets: dataset,
      systems: [
        { name: 'gor-llm', strategy: 'gor', model: 'gor-writer', params: small },
        { name: 'gor-dense', strategy: 'gor', model: 'gor-writer', params: { ...small, embedder: 'embed' } },
        { name: 'bm25-llm', strategy: 'rag', model: 'gor-writer', params: { retriever: 'bm25' } },
        { name: 'thought-llm', strategy: 'thought-retriever', model: 'gor-writer', params: small },
        { name: 'refuses', strategy: 'rag', model: 'gor-refuses', params: { retriever: 'bm25' } },
      ],
      metrics: [{ name: 'rouge' }, { name: 'gor-pairwise', judge: { model: 'judge' }, baseline: 'bm25-llm' }],
    });
    expect(r.progress.status).toBe('completed-with-failures');
    for (const system of ['gor-llm', 'gor-dense', 'bm25-llm', 'thought-llm']) {
      const x = row(r, system);
      expect([system, x.status, x.samples]).toEqual([system, 'complete', LIMIT]);
      const want = await expectedRouge(r, system);
      expect(x.rouge!.rougeL).toBeCloseTo(want.rougeL, 10);
    }
    // The judge always picks answer 1: each system wins one order of each meeting.
    for (const system of ['gor-llm', 'gor-dense', 'thought-llm'])
      expect(row(r, system).pairwise).toEqual([
        {
          baseline: 'bm25-llm',
          judge: 'model:judge',
          pairs: LIMIT,
          winRate: { comprehensiveness: 50, diversity: 50, empowerment: 50, overall: 50 },
          failed: 0,
        },
      ]);
    expect(row(r, 'gor-dense').ranker).toBe('gor(model:embed, alpha=0.5)');
    const refused = row(r, 'refuses');
    expect([refused.rouge, refused.rank, refused.status]).toEqual([
      null,
      null,
      `failed: ${LIMIT} of ${LIMIT} summaries failed`,
    ]);
    expect(r.run.error).toContain(
      'system model gor-refuses gave no parseable answer in 3 attempt(s); last: gor.summarize: the reply is empty',
    );
    // Questions at the system temperature, one cached call per draw; 6 distinct ones per meeting.
    const [draws] = await h.db.query(
      `SELECT COUNT(DISTINCT template_version) AS n FROM llm_calls WHERE run_id = $1 AND template_version LIKE '%#draw-%'`,
      [r.run.id],
    );
    expect(Number(draws.n)).toBeGreaterThanOrEqual(6);
  }, 180_000);

  it('refuses an offline GoR system on another engine and a baseline that is not a GoR system', () => {
    expect(() =>
      validateSpec(builtInFamilies, {
        name: 'bad',
        datasets: dataset,
        systems: [{ name: 'g', strategy: 'gor', engine: 'lead' }],
        metrics: [{ name: 'rouge' }, { name: 'gor-pairwise', judge: { model: 'judge' }, baseline: 'nobody' }],
      }),
    ).toThrow(
      /systems\[0\]\.engine: GoR offline systems use engine "textrank" \(got "lead"\)[\s\S]*metrics\[1\]\.baseline: baseline "nobody" is not a GoR system of this spec/,
    );
  });
});
