import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RunEntity } from '@precis/db';
import { splitSentences } from '@precis/text';
import {
  assembleRunReport,
  booookScoreReport,
  builtInFamilies,
  type DimensionLeaderboard,
  dimensionReport,
  type LeaderboardRow,
  loadFullRunReport,
  renderRunReport,
  runHeader,
  scoreRun,
  stageCounts,
  summaryId,
} from '../support/precis.js';
import { type RunHarness, SUMMEVAL_OP, startRunHarness } from './run-harness.js';

// The cells of one system's row in the first md table that has it, by column header.
function mdRow(md: string, system: string): Record<string, string> {
  const lines = md.split('\n');
  const cells = (l: string) =>
    l
      .slice(2, -2)
      .split(' | ')
      .map((c) => c.trim());
  const at = lines.findIndex((l) => l.startsWith('| ') && cells(l)[1] === system);
  if (at < 0) throw new Error(`no row for ${system} in:\n${md}`);
  let h = at;
  while (!lines[h - 1]!.startsWith('|---')) h--;
  const headers = cells(lines[h - 2]!);
  return Object.fromEntries(cells(lines[at]!).map((c, i) => [headers[i]!, c]));
}

describe('reports say what failed and score only complete rows', () => {
  let h: RunHarness;

  beforeAll(async () => {
    h = await startRunHarness('runs_report_failures');
  });

  afterAll(async () => {
    await h?.close();
  });

  const base = {
    datasets: [{ name: 'sop', kind: 'summeval-op', path: SUMMEVAL_OP, limit: 4 }],
    systems: [
      { name: 'tr-40', strategy: 'opinion', engine: 'textrank', params: { budgetWords: 40 } },
      { name: 'tr-80', strategy: 'opinion', engine: 'textrank', params: { budgetWords: 80 } },
      { name: 'candidates', source: 'dataset', only: ['gpt-4'] },
    ],
    cache: false,
  };

  async function sentencesOf(runId: string, system: string): Promise<number> {
    const rows = (await h.db.query(`SELECT text FROM summaries WHERE run_id = $1 AND system = $2`, [
      runId,
      system,
    ])) as { text: string }[];
    return rows.reduce((a, r) => a + splitSentences(r.text).length, 0);
  }

  it('a run whose every judge request answered 500', async () => {
    const { run, report } = await h.execute({
      ...base,
      name: 'judge-down',
      metrics: [
        { name: 'booookscore', judge: { model: 'down' } },
        {
          name: 'dimensions',
          family: 'op-i',
          dimensions: ['fluency', 'coherence'],
          judge: { model: 'down' },
        },
      ],
    });
    const counts = await stageCounts(h.db, run.id);
    expect(counts.verify!.done).toBe(0);
    expect(counts.verify!.failed).toBe(counts.verify!.total);
    const n40 = await sentencesOf(run.id, 'tr-40');
    const n80 = await sentencesOf(run.id, 'tr-80');
    const md = renderRunReport(report, 'md');
    expect(mdRow(md, 'tr-40')).toMatchObject({
      rank: '–',
      BooookScore: 'n/a',
      '95% CI': 'n/a',
      summaries: '0',
      failed: `${n40} judgments`,
      judge: 'model:down',
      status: `failed: ${n40} of ${n40} judgments failed`,
    });
    const all = n40 + n80;
    expect(md).toContain(`Judge: model:down (every judgment failed: ${all} of ${all}).`);
    expect(md).toContain(`- tr-40: no sentence judged (failed: ${n40} of ${n40} judgments failed)\n`);
    expect(md).not.toContain('no confusions found');
    // Dimensions: 3 systems x 4 products on each of 2 dimensions, none judged.
    expect(md).toContain('Every judgment failed (12 of 12): no judge scores.');
    const gpt4 = mdRow(md.slice(md.indexOf('## Opinion dimensions — fluency')), 'gpt-4');
    expect(gpt4).toMatchObject({
      rank: '–',
      fluency: 'n/a',
      failed: '4 judgments',
      status: 'failed: 4 of 4 judgments failed',
    });
  });

  it('a run whose every summarizer and judge request answered 500', async () => {
    const { run, report, progress } = await h.execute({
      ...base,
      name: 'all-down',
      systems: [{ name: 'down-sum', strategy: 'opinion', model: 'down' }],
      metrics: [
        { name: 'booookscore', judge: { model: 'down' } },
        { name: 'dimensions', family: 'op-i', dimensions: ['fluency'], judge: { model: 'down' } },
      ],
    });
    expect(progress.summaries).toEqual({ expected: 4, done: 0, failed: 4 });
    const counts = await stageCounts(h.db, run.id);
    expect(counts.summarize).toMatchObject({ total: 4, done: 0, failed: 4 });
    const md = renderRunReport(report, 'md');
    expect(mdRow(md, 'down-sum')).toMatchObject({
      rank: '–',
      BooookScore: 'n/a',
      summaries: '0',
      failed: '4 summaries',
      status: 'failed: 4 of 4 summaries failed',
    });
    expect(md).toContain('Judge: model:down (nothing to judge: every summary failed).');
    expect(md).toContain('- down-sum: no sentence judged (failed: 4 of 4 summaries failed)\n');
    expect(md).toContain('Nothing to judge: every summary failed.');
    expect(mdRow(md.slice(md.indexOf('## Opinion dimensions — fluency')), 'down-sum')).toMatchObject({
      summarizer: 'model:down',
      failed: '4 summaries',
      status: 'failed: 4 of 4 summaries failed',
    });
  });

  let partlyFailed: RunEntity;

  it('a run that lost a summary, a judge task and a judgment', async () => {
    const { run, spec, ctx, report } = await h.execute({
      ...base,
      name: 'partly-failed',
      metrics: [
        { name: 'booookscore', judge: { model: 'judge' }, batchSize: 2 },
        { name: 'dimensions', family: 'op-i', dimensions: ['fluency'], judge: { model: 'judge' } },
      ],
    });
    expect(renderRunReport(report, 'md')).not.toContain('incomplete');
    const docs = (
      (await h.db.query(`SELECT DISTINCT document_id FROM summaries WHERE run_id = $1 ORDER BY 1`, [
        run.id,
      ])) as { document_id: string }[]
    ).map((d) => d.document_id);
    // tr-80's summary of the first product died with its summarize step.
    await h.db.query(`UPDATE tasks SET status = 'dead' WHERE id LIKE $1`, [
      `${run.id}:summarize:tr-80:${docs[0]}:%`,
    ]);
    await h.db.query(`DELETE FROM summaries WHERE id = $1`, [summaryId(run.id, 'tr-80', docs[0]!)]);
    // tr-40: the judge task of the second product's first batch died (2 judgments lost), and one
    // judgment of the third product failed.
    await h.db.query(`UPDATE tasks SET status = 'dead' WHERE id = $1`, [
      `${run.id}:verify:tr-40:${docs[1]}:booookscore.0:0`,
    ]);
    await h.db.query(`DELETE FROM judgments WHERE summary_id = $1 AND unit IN (1, 2)`, [
      summaryId(run.id, 'tr-40', docs[1]!),
    ]);
    await h.db.query(`UPDATE judgments SET status = 'failed' WHERE summary_id = $1 AND unit = 1`, [
      summaryId(run.id, 'tr-40', docs[2]!),
    ]);
    // gpt-4's fluency judgment of the last product died.
    await h.db.query(
      `DELETE FROM metric_values WHERE run_id = $1 AND system = 'gpt-4' AND document_id = $2`,
      [run.id, docs[3]],
    );
    const n40 = await sentencesOf(run.id, 'tr-40');
    const n80 = await sentencesOf(run.id, 'tr-80');
    const scored = (await scoreRun(ctx, run.id, spec)) as {
      leaderboard: LeaderboardRow[];
      dimensions: DimensionLeaderboard[];
    };
    const rescored = await assembleRunReport(h.db, run, [
      {
        section: booookScoreReport,
        part: {
          run: runHeader(run),
          leaderboard: scored.leaderboard.map((r) => ({ ...r, metricKey: 'booookscore.0' })),
          bootstrapResamples: 1000,
        },
      },
      { section: dimensionReport, part: { run: runHeader(run), boards: scored.dimensions } },
    ]);
    const md = renderRunReport(rescored, 'md');
    expect(mdRow(md, 'tr-40')).toMatchObject({
      rank: '–',
      BooookScore: 'n/a',
      summaries: '2',
      failed: '3 judgments',
      status: `incomplete: 3 of ${n40} judgments failed`,
    });
    expect(mdRow(md, 'tr-80')).toMatchObject({
      rank: '–',
      BooookScore: 'n/a',
      summaries: '3',
      failed: '1 summary',
      status: 'incomplete: 1 of 4 summaries failed',
    });
    expect(md).toContain(
      `Judge: model:judge [booookscore.annotate-batch@1] (3 of ${n40 + n80} judgments failed).`,
    );
    expect(md).toMatch(
      /\n- tr-40: .* in the \d+ judged sentences \(incomplete: 3 of \d+ judgments failed\)\n/,
    );
    const dims = md.slice(md.indexOf('## Opinion dimensions — fluency'));
    expect(mdRow(dims, 'gpt-4')).toMatchObject({
      rank: '–',
      fluency: 'n/a',
      failed: '1 judgment',
      status: 'incomplete: 1 of 4 judgments failed',
    });
    expect(mdRow(dims, 'tr-80')).toMatchObject({ rank: '–', status: 'incomplete: 1 of 4 summaries failed' });
    expect(mdRow(dims, 'tr-40')).toMatchObject({ rank: '1', failed: '0', status: 'complete' });
    expect(dims).toContain(' 1 of 11 judgments failed; rows with failures have no mean and no rank.');
    partlyFailed = run;
    // JSON: ranked rows first, unranked rows with rank null.
    const json = JSON.parse(renderRunReport(rescored, 'json'));
    const rows = (s: { rows: { system: string; rank: number | null; rankLabel: string }[] }) =>
      s.rows.map((r) => [r.system, r.rank, r.rankLabel]);
    expect(json.sections.map(rows)).toEqual([
      [
        ['tr-40', null, '–'],
        ['tr-80', null, '–'],
      ],
      [
        ['tr-40', 1, '1'],
        ['gpt-4', null, '–'],
        ['tr-80', null, '–'],
      ],
    ]);
  });

  it('reads rows stored before failures were counted by kind, without their partial means', async () => {
    const run = partlyFailed;
    // As the previous scoring stored them: one 'incomplete' count and a mean over the rest.
    await h.db.query(
      `UPDATE metric_values SET details = (details - 'work' - 'status') || '{"incomplete": 2, "score": 0.9, "summaries": 2}'
        WHERE id = $1`,
      [`${run.id}:tr-40:*:booookscore.0`],
    );
    const [task] = await h.db.query(`SELECT result FROM tasks WHERE id = $1`, [`${run.id}:score`]);
    for (const row of task.result.dimensions[0].rows) {
      delete row.work;
      delete row.status;
      if (row.system === 'tr-40')
        row.dimensions.fluency = { ...row.dimensions.fluency, summaries: 3, failed: 1 };
    }
    await h.db.query(`UPDATE tasks SET result = $2 WHERE id = $1`, [`${run.id}:score`, task.result]);
    const md = renderRunReport(await loadFullRunReport(builtInFamilies, h.db, run), 'md');
    expect(mdRow(md, 'tr-40')).toMatchObject({
      rank: '–',
      BooookScore: 'n/a',
      '95% CI': 'n/a',
      status: 'incomplete: 2 of 4 summaries not scored (failures not counted by kind)',
    });
    expect(mdRow(md.slice(md.indexOf('## Opinion dimensions — fluency')), 'tr-40')).toMatchObject({
      rank: '–',
      fluency: 'n/a',
      failed: '1 judgment',
      status: 'incomplete: 1 of 4 judgments failed',
    });
  });
});
