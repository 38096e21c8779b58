import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { builtInFamilies } from '@precis/families';
import { importDataset } from '@precis/ingest';
import { runMetaQuery } from '@precis/meta';
import { Command } from 'commander';
import type { DataSource } from 'typeorm';
import { registerMetaCommands } from './meta.command.js';

// The shipped dataset kinds: summeval-op is the opinion family's.
const kinds = builtInFamilies().datasetKinds;

const repoRoot = resolve(import.meta.dirname, '../../../../..');
const FILE = resolve(repoRoot, '../shared/datasets/summeval-op/summeval-op.jsonl');

let db: ThrowawayDatabase;
let ds: DataSource;
let dir: string;

beforeAll(async () => {
  db = await createThrowawayDatabase('cli_meta');
  ds = await createDataSource({ url: db.url });
  await importDataset(ds, { kind: 'summeval-op', kinds, path: FILE, name: 'sop' });
  dir = await mkdtemp(join(tmpdir(), 'precis-cli-meta-'));
});

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// Runs `precis meta ...` through commander with captured stdout.
async function run(...args: string[]): Promise<string> {
  let out = '';
  const stdout = new Writable({
    write(chunk, _enc, cb) {
      out += String(chunk);
      cb();
    },
  });
  const program = new Command('precis').exitOverride();
  registerMetaCommands(program, { stdout, metaQuery: (_cmd, q) => runMetaQuery(ds, q) });
  for (const c of program.commands) for (const s of c.commands) s.exitOverride();
  await program.parseAsync(['node', 'precis', 'meta', ...args]);
  return out;
}

describe('precis meta', () => {
  it('correlate --json gives per-dimension correlations keyed by canonical ids', async () => {
    const report = JSON.parse(await run('correlate', '--dataset', 'sop', '--metric', 'rouge-2', '--json'));
    expect(Object.keys(report.dimensions)).toEqual([
      'fluency',
      'coherence',
      'relevance',
      'faithfulness',
      'aspect_coverage',
      'sentiment_consistency',
      'specificity',
    ]);
    for (const c of Object.values(report.dimensions) as {
      spearman: number;
      kendall: number;
      products: number;
    }[]) {
      expect(c.spearman).toBeLessThan(0);
      expect(c.kendall).toBeLessThan(0);
      expect(c.products).toBe(32);
    }
    expect(report.producedBy).toContain('ROUGE-2 F1');
  });

  it('correlate prints a table naming the metric and settings', async () => {
    const text = await run(
      'correlate',
      '--dataset',
      'sop',
      '--metric',
      'rouge-1',
      '--level',
      'system',
      '--no-stem',
    );
    expect(text).toMatch(/^DIMENSION\s+SPEARMAN\s+KENDALL\s+PEARSON\s+PRODUCTS\s+SKIPPED\s+SYSTEMS/);
    expect(text).toContain('Porter stemming off');
    expect(text).toContain('system-level');
  });

  it('correlate --ci adds bootstrap intervals', async () => {
    const report = JSON.parse(
      await run(
        'correlate',
        '--dataset',
        'sop',
        '--metric',
        'rouge-1',
        '--ci',
        '50',
        '--seed',
        '3',
        '--json',
      ),
    );
    expect(report.dimensions.coherence.ci95.spearman).toHaveLength(2);
    expect(report.method).toContain('50 resamples, seed 3');
    const text = await run('correlate', '--dataset', 'sop', '--metric', 'rouge-1', '--ci', '50');
    expect(text.split('\n')[0]).toContain('SPEARMAN 95% CI');
    await expect(run('correlate', '--dataset', 'sop', '--metric', 'rouge-1', '--ci', 'x')).rejects.toThrow(
      /--ci "x"/,
    );
  });

  it('refuses bad metric, level and groups values with a clear message', async () => {
    await expect(run('correlate', '--dataset', 'sop', '--metric', 'bleu')).rejects.toThrow(
      '--metric "bleu" is not a metric: use rouge-1, rouge-2, rouge-l or judge:<run id or name>',
    );
    await expect(
      run('correlate', '--dataset', 'sop', '--metric', 'rouge-1', '--level', 'corpus'),
    ).rejects.toThrow(/--level "corpus"/);
    await expect(run('compare', '--a', 'x', '--b', 'y', '--groups', 'ten')).rejects.toThrow(/--groups "ten"/);
  });

  it('agreement reads a ratings file', async () => {
    const path = join(dir, 'ratings.jsonl');
    await writeFile(
      path,
      `${JSON.stringify({
        summaries: ['a', 'b', 'c'],
        fl: [
          [1, 1],
          [2, 2],
          [5, 5],
        ],
      })}\n`,
    );
    const report = JSON.parse(await run('agreement', '--ratings', path, '--json'));
    expect(report.dimensions.fluency.alpha).toEqual({ interval: 1, ordinal: 1, nominal: 1 });
    expect(report.dimensions.fluency.pairwise[0].raters).toEqual([0, 1]);
    expect(await run('agreement', '--ratings', path)).toContain('ALPHA INTERVAL');
  });

  it("agreement reads the publisher's per-rater layout, reviews and all", async () => {
    // Two products as SummEval-OP's summeval-op-detailed.jsonl lays them out: reviews, summaries,
    // then one row of three raters' ratings per summary for each of the seven dimensions.
    const product = (reviews: string[], rows: number[][]) => ({
      reviews,
      summaries: rows.map((_, i) => `summary ${i}`),
      ...Object.fromEntries(['fl', 'co', 're', 'fa', 'ac', 'sc', 'sp'].map((d) => [d, rows])),
    });
    const path = join(dir, 'detailed.jsonl');
    const lines = [
      product(
        ['Great boots.', 'They run narrow.'],
        [
          [4, 4, 4],
          [2, 2, 2],
          [5, 5, 5],
        ],
      ),
      product(
        ['Comfortable shoe.'],
        [
          [1, 1, 1],
          [3, 3, 3],
          [4, 4, 4],
        ],
      ),
    ];
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const report = JSON.parse(await run('agreement', '--ratings', path, '--json'));
    expect(Object.keys(report.dimensions)).toHaveLength(7);
    expect(report.dimensions.specificity.alpha).toEqual({ interval: 1, ordinal: 1, nominal: 1 });
    expect(report.dimensions.specificity.pairwise.map((p: { rmse: number }) => p.rmse)).toEqual([0, 0, 0]);

    const unknown = join(dir, 'unknown-dimension.jsonl');
    await writeFile(
      unknown,
      `${JSON.stringify({
        ...lines[0],
        readability: [
          [4, 4, 4],
          [2, 2, 2],
          [5, 5, 5],
        ],
      })}\n`,
    );
    await expect(run('agreement', '--ratings', unknown)).rejects.toThrow(
      `${unknown}, line 1, field readability: unknown dimension "readability"; use fl, co, re, fa, ac, sc, sp or the canonical ids`,
    );
  });

  it('agreement says what the mean-ratings SummEval-OP file lacks', async () => {
    await expect(run('agreement', '--ratings', FILE)).rejects.toThrow(
      `${FILE}, line 1, field summaries: this is a mean-ratings file (summaries keyed by system, each with the mean of its raters); agreement needs each rater's ratings`,
    );
  });

  it('compare tests two sample files group by group', async () => {
    const rows = (shift: number) =>
      ['a', 'b', 'c', 'd']
        .flatMap((system, i) =>
          ['p1', 'p2'].map((product, k) =>
            JSON.stringify({
              product,
              system,
              dimension: 'co',
              human: i + 1 + k,
              samples: Array.from({ length: 20 }, (_, s) => ((i + (s % (shift + 2)) * (k + 1)) % 5) + 1),
            }),
          ),
        )
        .join('\n');
    await writeFile(join(dir, 'a.jsonl'), rows(0));
    await writeFile(join(dir, 'b.jsonl'), rows(3));
    const report = JSON.parse(
      await run(
        'compare',
        '--a',
        join(dir, 'a.jsonl'),
        '--b',
        join(dir, 'b.jsonl'),
        '--groups',
        '10',
        '--json',
      ),
    );
    expect(report.groups).toBe(10);
    expect(Object.keys(report.dimensions)).toEqual(['coherence']);
    expect(report.dimensions.coherence.correlations.a.length).toBeGreaterThan(1);
    expect(report.dimensions.coherence.mannWhitney.pValue).toBeGreaterThanOrEqual(0);
  });

  it('leaderboard renders the 13 systems with a ROUGE column group', async () => {
    const csv = await run('leaderboard', '--dataset', 'sop', '--judge', 'rouge-1', '--format', 'csv');
    const lines = csv.trim().split('\n');
    expect(lines[0]).toContain('FL human,FL rouge-1');
    // The 13 systems, then (after a blank line) the judge's Spearman with the humans.
    expect(lines).toHaveLength(1 + 13 + 1 + 1 + 1);
    expect(lines[1]).toMatch(/^human-leaderboard,1,gpt-4,5,/);
    expect(lines[15]).toBe('table,judge,FL,CO,RE,FA,AC,SC,SP');
    expect(lines[16]).toMatch(/^spearman-vs-human,rouge-1,-0\.3712981253\d*,/);
    const json = JSON.parse(await run('leaderboard', '--dataset', 'sop', '--format', 'json'));
    expect(json.entries).toHaveLength(13);
  });
});
