// A document side by side in a run of every family (PostgreSQL, in-process bus): each system's
// final summary as the summaries table holds it, beside exactly its per-summary metric values.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sideBySide } from '../support/precis.js';
import { type RunHarness, SUMMEVAL_OP, startRunHarness } from './run-harness.js';

const repo = resolve(import.meta.dirname, '../..');
const shared = (path: string) => resolve(repo, '../shared/datasets', path);

const SPECS: Record<string, Record<string, unknown>> = {
  books: {
    name: 'sbs-books',
    datasets: [
      { name: 'lighthouse', kind: 'text', path: resolve(repo, 'examples/data/the-lighthouse-keeper.md') },
    ],
    systems: [
      {
        name: 'hier-lead',
        strategy: 'hierarchical',
        engine: 'lead',
        params: { chunkSize: 256, levelBudgets: [60, 120] },
      },
      {
        name: 'inc-textrank',
        strategy: 'incremental',
        engine: 'textrank',
        params: { chunkSize: 256, runningBudget: 120 },
      },
    ],
    metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
  },
  opinion: {
    name: 'sbs-opinion',
    datasets: [{ name: 'sop', kind: 'summeval-op', path: SUMMEVAL_OP, limit: 1 }],
    systems: [
      { name: 'candidates', source: 'dataset', only: ['gpt-4', 'plansum'] },
      { name: 'tr', strategy: 'opinion', engine: 'textrank', params: { budgetWords: 40 } },
    ],
    metrics: [
      { name: 'dimensions', family: 'op-i', dimensions: ['fluency'], judge: { model: 'judge' }, samples: 1 },
    ],
  },
  kgds: {
    name: 'sbs-kgds',
    datasets: [{ name: 'kgds', kind: 'kgds', path: shared('kgds/KGDS.json'), limit: 1 }],
    systems: [
      { name: 'gold', source: 'gold' },
      { name: 'lead-3', strategy: 'ebs-aos', engine: 'lead', params: { paragraphs: 3 } },
    ],
    metrics: [{ name: 'kgds', judge: { engine: 'lexical' } }],
  },
  persphere: {
    name: 'sbs-persphere',
    datasets: [
      {
        name: 'tp',
        kind: 'persphere',
        path: shared('persphere/theperspective.queries.jsonl'),
        corpus: shared('persphere/theperspective.documents.jsonl'),
        limit: 1,
      },
    ],
    systems: [
      { name: 'bm25-lead', strategy: 'vanilla', engine: 'lead', params: { retriever: 'bm25', k: 10 } },
    ],
    metrics: [{ name: 'persphere', judge: { engine: 'lexical' } }],
  },
  gor: {
    name: 'sbs-gor',
    seed: 7,
    datasets: [{ name: 'qm', kind: 'qmsum', path: shared('qmsum/test.jsonl'), limit: 1 }],
    systems: [
      { name: 'bm25', strategy: 'rag', engine: 'textrank', params: { retriever: 'bm25' } },
      { name: 'window', strategy: 'context-window', engine: 'textrank', params: { contextTokens: 2048 } },
    ],
    metrics: [{ name: 'rouge' }],
  },
};

describe('a document side by side, for every family', () => {
  let h: RunHarness;

  beforeAll(async () => {
    h = await startRunHarness('side_by_side_runs');
  });

  afterAll(async () => {
    await h?.close();
  });

  for (const [family, spec] of Object.entries(SPECS))
    it(`gives each ${family} system's summary of a document beside its own values`, async () => {
      const { run, progress } = await h.execute(spec);
      expect([family, progress.status]).toEqual([family, 'completed']);
      const [first] = await h.db.query(
        'SELECT document_id FROM summaries WHERE run_id = $1 ORDER BY system, document_id LIMIT 1',
        [run.id],
      );
      const view = await sideBySide(h.db, run, first.document_id);
      const summaries: { system: string; text: string }[] = await h.db.query(
        'SELECT system, text FROM summaries WHERE run_id = $1 AND document_id = $2 ORDER BY system',
        [run.id, first.document_id],
      );
      const values: { system: string; metric: string; value: number | null }[] = await h.db.query(
        'SELECT system, metric, value FROM metric_values WHERE run_id = $1 AND document_id = $2',
        [run.id, first.document_id],
      );
      expect(values.length).toBeGreaterThan(0);
      // Every summary has its column, with its text and exactly its own values.
      expect(view.systems.map((s) => s.system).sort()).toEqual(summaries.map((s) => s.system).sort());
      for (const column of view.systems) {
        expect(column.summary).toBe(summaries.find((s) => s.system === column.system)!.text);
        const own = values.filter((v) => v.system === column.system);
        expect([column.system, column.values.map((v) => [v.metric, v.value]).sort()]).toEqual([
          column.system,
          own.map((v) => [v.metric, v.value]).sort(),
        ]);
      }
      expect(view.metrics).toEqual([...new Set(values.map((v) => v.metric))].sort());
    }, 180_000);
});
