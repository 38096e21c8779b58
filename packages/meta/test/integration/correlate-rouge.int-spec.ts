import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { renderHtml } from '@precis/api/report-html';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { builtInFamilies } from '@precis/families';
import { importDataset } from '@precis/ingest';
import {
  type CorrelationReport,
  correlateWithHumans,
  humanLeaderboard,
  leaderboardBlocks,
  leaderboardTitle,
  loadOpinionDataset,
  MetaInputError,
  renderLeaderboard,
  rougeScores,
} from '@precis/meta';
import { OPINION_DIMENSION_IDS } from '@precis/prompts';
import { pageDataOf } from '@precis/web';
import type { DataSource } from 'typeorm';

// The shipped dataset kinds: summeval-op is the opinion family's.
const kinds = builtInFamilies().datasetKinds;

const repoRoot = resolve(import.meta.dirname, '../../../..');
const FILE = resolve(repoRoot, '../shared/datasets/summeval-op/summeval-op.jsonl');

function table(name: string, r: CorrelationReport): string {
  const f = (v: number | null) => (v === null ? '  -   ' : v.toFixed(3).padStart(6));
  return [
    `${name} (${r.level} level) — ${r.producedBy}`,
    ...OPINION_DIMENSION_IDS.map((d) => {
      const c = r.dimensions[d];
      return `  ${d.padEnd(22)} spearman ${f(c.spearman)}  kendall ${f(c.kendall)}  pearson ${f(c.pearson)}  products ${c.products}`;
    }),
  ].join('\n');
}

describe('meta-evaluation on SummEval-OP (PostgreSQL)', () => {
  let db: ThrowawayDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createThrowawayDatabase('meta_correlate');
    ds = await createDataSource({ url: db.url });
    await importDataset(ds, { kind: 'summeval-op', kinds, path: FILE, name: 'summeval-op' });
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('loads the 32 products with 13 rated summaries each', async () => {
    const data = await loadOpinionDataset(ds, 'summeval-op');
    expect(data.products).toHaveLength(32);
    for (const p of data.products) {
      expect(p.summaries).toHaveLength(13);
      expect(p.reviews).toHaveLength(8);
      for (const s of p.summaries) expect(Object.keys(s.ratings)).toHaveLength(7);
    }
  });

  it.each(['rouge-1', 'rouge-2', 'rouge-l'] as const)(
    '%s against the human summary correlates negatively with humans on all 7 dimensions',
    async (metric) => {
      const report = await correlateWithHumans(ds, { dataset: 'summeval-op', metric, level: 'summary' });
      console.log(table(metric, report));
      expect(report.producedBy).toContain('Porter stemming on');
      expect(report.producedBy).toContain('human-summaries');
      for (const dim of OPINION_DIMENSION_IDS) {
        const c = report.dimensions[dim];
        expect(c.spearman).toBeLessThan(0);
        expect(c.kendall).toBeLessThan(0);
        expect(c.products).toBeGreaterThan(25);
        // The reference summary stays in: 13 summaries per product.
        expect(c.summaries).toBe(32 * 13);
      }
    },
  );

  it('scores the reference summary with ROUGE = 1 and keeps it', async () => {
    const data = await loadOpinionDataset(ds, 'summeval-op');
    const scores = rougeScores(data.products, 'rouge-l', { reference: 'human-summaries' });
    expect(scores.scores.get(`${data.products[0]!.id}\u0000human-summaries`)).toBe(1);
    expect(scores.scores.size).toBe(32 * 13);
  });

  it('computes system-level correlations over the 13 systems', async () => {
    const report = await correlateWithHumans(ds, {
      dataset: 'summeval-op',
      metric: 'rouge-1',
      level: 'system',
    });
    console.log(table('rouge-1', report));
    for (const dim of OPINION_DIMENSION_IDS) {
      expect(report.dimensions[dim].systems).toBe(13);
      expect(report.dimensions[dim].spearman).not.toBeNull();
    }
  });

  it('adds reproducible bootstrap confidence intervals over products on request', async () => {
    const opts = {
      dataset: 'summeval-op',
      metric: 'rouge-l' as const,
      bootstrap: { resamples: 200, seed: 7 },
    };
    const a = await correlateWithHumans(ds, opts);
    const b = await correlateWithHumans(ds, opts);
    expect(a.method).toContain('200 resamples, seed 7');
    for (const dim of OPINION_DIMENSION_IDS) {
      const c = a.dimensions[dim];
      const [lo, hi] = c.ci95!.spearman!;
      expect(lo).toBeLessThanOrEqual(c.spearman!);
      expect(hi).toBeGreaterThanOrEqual(c.spearman!);
      expect(b.dimensions[dim].ci95).toEqual(c.ci95);
    }
    const plain = await correlateWithHumans(ds, { dataset: 'summeval-op', metric: 'rouge-l' });
    expect(plain.dimensions.fluency.ci95).toBeUndefined();
  });

  it('refuses an unknown reference system or dataset with a clear error', async () => {
    await expect(
      correlateWithHumans(ds, { dataset: 'summeval-op', metric: 'rouge-1', reference: 'gpt-5' }),
    ).rejects.toThrow(/no summary by the reference system "gpt-5"/);
    await expect(correlateWithHumans(ds, { dataset: 'nope', metric: 'rouge-1' })).rejects.toThrow(
      MetaInputError,
    );
  });

  it('ranks the 13 systems by human rating, with a judge column and its correlation', async () => {
    const data = await loadOpinionDataset(ds, 'summeval-op');
    const rouge = rougeScores(data.products, 'rouge-1', { reference: 'human-summaries' });
    const board = humanLeaderboard('summeval-op', data.products, [{ label: 'rouge-1', scores: rouge }]);
    expect(board.entries).toHaveLength(13);
    const overall = board.entries.map((e) => e.human.overall!);
    expect([...overall].sort((a, b) => b - a)).toEqual(overall);
    // Hand check of one cell: the mean fluency of gpt-4 over the 32 products.
    const gpt4 = board.entries.find((e) => e.system === 'gpt-4')!;
    const expected =
      data.products.reduce((s, p) => s + p.summaries.find((x) => x.system === 'gpt-4')!.ratings.fluency!, 0) /
      32;
    expect(gpt4.human.fluency).toBeCloseTo(expected, 12);
    expect(board.entries.find((e) => e.system === 'human-summaries')!.judges['rouge-1']!.fluency).toBe(1);
    expect(board.judges[0]!.correlation.fluency.spearman).toBeLessThan(0);
    const md = renderLeaderboard(board, 'md');
    expect(md.split('\n')[0]).toBe('# summeval-op: systems by human rating');
    expect(md.split('\n')[2]).toContain('| FL human | FL rouge-1 |');
    // Two tables (13 systems; the judge's Spearman row), each under its header, a blank between.
    const csv = renderLeaderboard(board, 'csv').split('\n');
    expect(csv).toHaveLength(1 + 13 + 1 + 1 + 1 + 1);
    expect(csv[0]).toMatch(/^table,rank,system,FL human,FL rouge-1,FL rouge-1 failed,CO human,/);
    expect(csv[15]).toBe('table,judge,FL,CO,RE,FA,AC,SC,SP');
    // Unrounded: as computed, to 12 significant digits.
    const rho = OPINION_DIMENSION_IDS.map((d) =>
      Number(board.judges[0]!.correlation[d].spearman!.toPrecision(12)),
    );
    expect(csv[16]).toBe(`spearman-vs-human,rouge-1,${rho.join(',')}`);
    const page = pageDataOf(renderHtml(leaderboardTitle(board), leaderboardBlocks(board))) as {
      blocks: { table?: { rows: string[][] } }[];
    };
    expect(page.blocks[0]!.table!.rows.map((r) => r[1])).toContain('gpt-4');
  });
});
