import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { booookScorePart, dimensionPart, scoreRun } from '../support/precis.js';
import {
  type ExecutedRun,
  type RunHarness,
  reportResults,
  SUMMEVAL_OP,
  startRunHarness,
} from './run-harness.js';

describe('the same spec and seed give the same report', () => {
  let h: RunHarness;

  beforeAll(async () => {
    h = await startRunHarness('runs_report_repro');
  });

  afterAll(async () => {
    await h?.close();
  });

  const base = {
    datasets: [{ name: 'sop', kind: 'summeval-op', path: SUMMEVAL_OP, limit: 8 }],
    systems: [
      { name: 'tr-40', strategy: 'opinion', engine: 'textrank', params: { budgetWords: 40 } },
      { name: 'tr-80', strategy: 'opinion', engine: 'textrank', params: { budgetWords: 80 } },
    ],
    seed: 11,
    cache: false,
  };

  it('an offline spec run twice', async () => {
    const spec = {
      ...base,
      name: 'offline',
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    };
    const a = await h.execute(spec);
    const b = await h.execute(spec);
    expect(b.run.id).not.toBe(a.run.id);
    expect(booookScorePart(a.report).leaderboard.map((r) => [r.system, r.status, r.summaries])).toEqual([
      ['tr-40', 'complete', 8],
      ['tr-80', 'complete', 8],
    ]);
    expect(reportResults(b.report)).toEqual(reportResults(a.report));
  });

  let judged: ExecutedRun;

  it('a spec judged by a model (BooookScore and dimensions) run twice', async () => {
    const spec = {
      ...base,
      name: 'judged',
      systems: [...base.systems, { name: 'candidates', source: 'dataset', only: ['gpt-4', 'plansum'] }],
      metrics: [
        { name: 'booookscore', judge: { model: 'judge' } },
        {
          name: 'dimensions',
          family: 'op-i',
          dimensions: ['fluency', 'coherence'],
          judge: { model: 'judge' },
        },
      ],
    };
    const a = await h.execute(spec);
    const b = await h.execute(spec);
    const rows = booookScorePart(a.report).leaderboard;
    expect(rows.map((r) => [r.system, r.status, r.summaries])).toEqual([
      ['tr-40', 'complete', 8],
      ['tr-80', 'complete', 8],
    ]);
    // Scores differ per summary, so each CI is a real interval and depends on the value order.
    for (const r of rows) expect(r.ci95![1]).toBeGreaterThan(r.ci95![0]);
    const [board] = dimensionPart(a.report).boards;
    expect(board!.rows.map((r) => [r.system, r.status])).toEqual([
      ['gpt-4', 'complete'],
      ['plansum', 'complete'],
      ['tr-40', 'complete'],
      ['tr-80', 'complete'],
    ]);
    for (const r of board!.rows)
      expect(r.dimensions.fluency!.ci95![1]).toBeGreaterThan(r.dimensions.fluency!.ci95![0]);
    expect(reportResults(b.report)).toEqual(reportResults(a.report));
    judged = a;
  });

  it('scores the same stored values in another physical row order identically', async () => {
    const { run, spec, ctx } = judged;
    const before = await scoreRun(ctx, run.id, spec);
    // Rewrite the run's judgments and per-summary values in reverse order: a scan without ORDER
    // BY now returns them the other way round.
    await h.db.transaction(async (m) => {
      for (const table of ['judgments', 'metric_values']) {
        await m.query(`CREATE TEMP TABLE copy ON COMMIT DROP AS SELECT * FROM ${table} WHERE run_id = $1`, [
          run.id,
        ]);
        await m.query(`DELETE FROM ${table} WHERE run_id = $1`, [run.id]);
        await m.query(`INSERT INTO ${table} SELECT * FROM copy ORDER BY id DESC`);
        await m.query('DROP TABLE copy');
      }
    });
    expect(await scoreRun(ctx, run.id, spec)).toEqual(before);
  });
});
