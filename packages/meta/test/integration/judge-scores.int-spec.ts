import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { builtInFamilies } from '@precis/families';
import { importDataset } from '@precis/ingest';
import {
  correlateWithHumans,
  humanLeaderboard,
  loadJudgeScores,
  loadOpinionDataset,
  renderLeaderboard,
} from '@precis/meta';
import { OPINION_DIMENSION_IDS } from '@precis/prompts';
import type { DataSource } from 'typeorm';

// The shipped dataset kinds: summeval-op is the opinion family's.
const kinds = builtInFamilies().datasetKinds;

const repoRoot = resolve(import.meta.dirname, '../../../..');
const FILE = resolve(repoRoot, '../shared/datasets/summeval-op/summeval-op.jsonl');
const JUDGE = 'model:fake-judge opinion.judge.op-i@1 n=20';

// Judge scores as a judge run writes them to metric_values: one row per judged summary and
// dimension, metric 'dimension:<id>', system = the dataset system, document = the product.
describe('judge scores from metric_values (PostgreSQL)', () => {
  let db: ThrowawayDatabase;
  let ds: DataSource;
  let runId: string;

  beforeAll(async () => {
    db = await createThrowawayDatabase('meta_judge');
    ds = await createDataSource({ url: db.url });
    await importDataset(ds, { kind: 'summeval-op', kinds, path: FILE, name: 'summeval-op' });
    const [table] = (await ds.query(`SELECT to_regclass('public.metric_values') IS NOT NULL AS present`)) as {
      present: boolean;
    }[];
    // Until the run-results migration lands, create the table with the columns it defines.
    if (!table!.present) {
      await ds.query(`CREATE TABLE metric_values (id text PRIMARY KEY, run_id uuid NOT NULL, system text NOT NULL,
        document_id uuid, metric text NOT NULL, value double precision, details jsonb NOT NULL DEFAULT '{}',
        produced_by text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
    }
    const [run] = (await ds.query(
      `INSERT INTO runs (name, spec, spec_sha256) VALUES ('op-i-sweep', '{}', 'x') RETURNING id`,
    )) as { id: string }[];
    runId = run!.id;
    const data = await loadOpinionDataset(ds, 'summeval-op');
    // A judge that reproduces the human ranking exactly (human rating + 0.1), except that every
    // product's plansum fluency failed to parse (null value), and so did gpt-4's fluency on the
    // first product; the judge task of gpt-4's coherence on the second product died (no row).
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (const p of data.products) {
      for (const s of p.summaries) {
        for (const dim of OPINION_DIMENSION_IDS) {
          if (s.system === 'gpt-4' && dim === 'coherence' && p === data.products[1]) continue;
          const failed =
            dim === 'fluency' && (s.system === 'plansum' || (s.system === 'gpt-4' && p === data.products[0]));
          const value = failed ? null : s.ratings[dim]! + 0.1;
          const i = values.length;
          tuples.push(`($${i + 1}, $${i + 2}, $${i + 3}, $${i + 4}, $${i + 5}, $${i + 6}, $${i + 7})`);
          values.push(`${runId}:${s.system}:${p.documentId}:dimension:${dim}`, runId, s.system, p.documentId);
          values.push(`dimension:${dim}`, value, JUDGE);
        }
      }
      await ds.query(
        `INSERT INTO metric_values (id, run_id, system, document_id, metric, value, produced_by) VALUES ${tuples.join(', ')}`,
        values,
      );
      values.length = 0;
      tuples.length = 0;
    }
    await ds.query(
      `INSERT INTO tasks (id, run_id, stage, kind, status, payload) VALUES ($1, $2, 'verify', 'judge-dimension', 'dead', $3)`,
      [
        `${runId}:verify:gpt-4:${data.products[1]!.documentId}:dimensions.0:coherence`,
        runId,
        {
          type: 'judge-dimension',
          system: 'gpt-4',
          documentId: data.products[1]!.documentId,
          dimension: 'coherence',
        },
      ],
    );
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('reads the scores by run name or id, names the judge and counts failures', async () => {
    const data = await loadOpinionDataset(ds, 'summeval-op');
    const byName = await loadJudgeScores(ds, 'op-i-sweep', data.products);
    const byId = await loadJudgeScores(ds, runId, data.products);
    expect(byName.runId).toBe(runId);
    expect(byId.scores.size).toBe(32 * 13);
    expect(byName.failedCount).toBe(34);
    expect(byName.producedBy).toBe(`judge run ${runId}: ${JUDGE}; 34 judgments failed`);
    await expect(loadJudgeScores(ds, 'no-such-run', data.products)).rejects.toThrow(/no run with id or name/);
  });

  it('correlates a judge that follows the humans perfectly at 1, leaving failed scores out', async () => {
    const report = await correlateWithHumans(ds, {
      dataset: 'summeval-op',
      metric: { judgeRun: 'op-i-sweep' },
    });
    expect(report.producedBy).toContain(JUDGE);
    for (const dim of OPINION_DIMENSION_IDS) {
      expect(report.dimensions[dim].spearman).toBeCloseTo(1, 12);
      expect(report.dimensions[dim].kendall).toBeCloseTo(1, 12);
    }
    expect(report.dimensions.fluency.summaries).toBe(32 * 12 - 1);
    expect(report.dimensions.coherence.summaries).toBe(32 * 13 - 1);
  });

  it('puts the judge beside the humans in the leaderboard', async () => {
    const data = await loadOpinionDataset(ds, 'summeval-op');
    const scores = await loadJudgeScores(ds, 'op-i-sweep', data.products);
    const board = humanLeaderboard('summeval-op', data.products, [{ label: 'judge:op-i-sweep', scores }]);
    const chatgpt = board.entries.find((e) => e.system === 'chatgpt-3.5-turbo')!;
    expect(chatgpt.judges['judge:op-i-sweep']!.coherence).toBeCloseTo(chatgpt.human.coherence! + 0.1, 10);
    expect(chatgpt.judgeFailed['judge:op-i-sweep']).toEqual({});
    // gpt-4 lost one fluency and one coherence judgment: no mean over the other 31 products.
    const gpt4 = board.entries.find((e) => e.system === 'gpt-4')!;
    expect(gpt4.judgeFailed['judge:op-i-sweep']).toEqual({ fluency: 1, coherence: 1 });
    expect(gpt4.judges['judge:op-i-sweep']!.coherence).toBeNull();
    expect(gpt4.judges['judge:op-i-sweep']!.relevance).toBeCloseTo(gpt4.human.relevance! + 0.1, 10);
    const md = renderLeaderboard(board, 'md');
    const row = md.split('\n').find((l) => l.startsWith('| 1 | gpt-4 |'))!;
    // FL human, FL judge, CO human, CO judge, ... ALL human, ALL judge.
    const cells = row.slice(0, -2).split(' | ');
    expect([cells[3], cells[5], cells[17]]).toEqual(['failed (1)', 'failed (1)', 'failed (2)']);
    // plansum has no fluency scores from the judge: the cell is empty, not 0.
    const plansum = board.entries.find((e) => e.system === 'plansum')!;
    expect(plansum.judges['judge:op-i-sweep']!.fluency).toBeNull();
    expect(plansum.judges['judge:op-i-sweep']!.overall).toBeNull();
  });
});
