import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pageDataOf } from '@precis/web';
import { assertBuilt, REPO_ROOT, runCli } from './run-cli.js';

const RESCORE = resolve(REPO_ROOT, 'test/engine/fixtures/rescore');

describe('precis run / runs / report / rescore (built binary, embedded)', () => {
  let home: string;

  beforeAll(async () => {
    assertBuilt();
    home = await mkdtemp(join(tmpdir(), 'precis-cli-runs-'));
  });

  afterAll(async () => {
    if (home) await rm(home, { recursive: true, force: true });
  });

  // Eleven CLI processes, each starting Node and PGlite: 40-60 s beside the chaos suite on 2 cores.
  it('runs the quickstart book benchmark offline, then lists, shows, traces and reports it', async () => {
    const env = { PRECIS_HOME: home };
    const run = await runCli(['run', 'examples/quickstart.yaml', '--json'], env);
    expect(run.stderr).toContain('completed');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      run: { id: string; status: string };
      sections: {
        title: string;
        rankingColumn: string;
        notes: string[];
        rows: { system: string; rank: number; rankLabel: string; judge: string; score: number }[];
      }[];
    };
    expect(report.run.status).toBe('completed');
    // One document cannot show any system better: the three share rank 1, and the note says why.
    const [section] = report.sections;
    expect([section!.title, section!.rankingColumn]).toEqual(['BooookScore (coherence)', 'BooookScore']);
    expect(section!.rows.map((r) => [r.system, r.rank, r.rankLabel, r.score])).toEqual([
      ['hier-lead', 1, '=1', 100],
      ['hier-textrank', 1, '=1', 100],
      ['inc-textrank', 1, '=1', 100],
    ]);
    expect(section!.notes.at(-1)).toBe(
      'Only 1 document: no system can be shown better (a paired test needs 5); all share rank 1.',
    );
    for (const row of section!.rows) expect(row.judge).toContain('(heuristic)');
    const id = report.run.id;

    const ls = await runCli(['runs', 'ls', '--json'], env);
    expect(JSON.parse(ls.stdout).map((r: { id: string }) => r.id)).toContain(id);

    const trace = await runCli(['runs', 'show', id.slice(0, 8), '--trace', 'the-lighthouse-keeper.md'], env);
    expect(trace.code).toBe(0);
    expect(trace.stdout).toContain('hier-textrank (hierarchical)');
    expect(trace.stdout).toContain('level 0 (chunk summaries)');
    expect(trace.stdout).toMatch(/\[i\/u\/1\] update/);

    const md = await runCli(['report', id, '--format', 'md'], env);
    expect(md.stdout).toContain(
      '## BooookScore (coherence), ranked by BooookScore [booookscore.0]\n\n| rank | system |',
    );
    expect(md.stdout).toContain('| =1 | hier-lead | hierarchical | engine:lead | 100.0 |');
    const csv = await runCli(['report', id, '--format', 'csv'], env);
    expect(csv.stdout.split('\n')[0]).toContain('BooookScore');
    const html = await runCli(['report', id, '--format', 'html'], env);
    // The web page in one file, the run's blocks and figures inside.
    const page = pageDataOf(html.stdout) as { blocks: { key: string }[]; figures: { points: unknown[] }[] };
    expect(page.blocks.map((b) => b.key)).toEqual(['booookscore.0', 'booookscore.0.error-types']);
    expect(page.figures[0]!.points).toHaveLength(3);
    // Terminal tables fit 120 columns and say what they left out; --wide shows every column.
    const text = await runCli(['report', id, '--format', 'text'], env);
    const tableLines = text.stdout.split('\n').filter((l) => /^(rank|----|=?\d+ )/.test(l));
    expect(tableLines.length).toBeGreaterThan(3);
    expect(Math.max(...tableLines.map((l) => l.trimEnd().length))).toBeLessThanOrEqual(120);
    const hidden = /Not shown to fit 120 columns: (.+) \(--wide shows every column\)\./.exec(text.stdout);
    expect(hidden).not.toBeNull();
    // The ranking column is never the one left out.
    expect(tableLines[0]).toMatch(/^rank +system +.*BooookScore/);
    expect(hidden![1]).not.toMatch(/(^|, )BooookScore(,|$)/);
    expect(tableLines.filter((l) => l.startsWith('=1 '))).toHaveLength(3);
    expect(text.stdout).toContain(
      'Only 1 document: no system can be shown better (a paired test needs 5); all share rank 1.',
    );
    // --alpha sets the significance level of the ranks; outside (0, 1) it is refused.
    const strict = JSON.parse(
      (await runCli(['report', id, '--format', 'json', '--alpha', '0.01'], env)).stdout,
    );
    expect(strict.sections[0].alpha).toBe(0.01);
    const showStrict = await runCli(['runs', 'show', id, '--alpha', '0.01'], env);
    expect(showStrict.stdout).toContain('Holm-corrected, alpha 0.01;');
    for (const args of [
      ['report', id, '--alpha', '2'],
      ['runs', 'show', id, '--alpha', 'x'],
    ]) {
      const refused = await runCli(args, env);
      expect([refused.code, refused.stderr]).toEqual([
        1,
        `precis: error: --alpha: expected a number in (0, 1), got "${args.at(-1)}"\n`,
      ]);
    }
    // One shared document is too few for a significance test: ranks tie, comparisons untested.
    const lb = await runCli(['leaderboard', '--runs', id.slice(0, 8), '--format', 'json'], env);
    const board = JSON.parse(lb.stdout);
    expect([board.metric, board.documents, board.entries.length]).toEqual(['booookscore.0', 1, 3]);
    expect(board.entries.map((e: { rank: number; rankLabel: string }) => [e.rank, e.rankLabel])).toEqual([
      [1, '=1'],
      [1, '=1'],
      [1, '=1'],
    ]);
    expect(board.notes).toEqual([
      'Only 1 document: no system can be shown better (a paired test needs 5); all share rank 1.',
    ]);
    expect(board.comparisons.map((c: { p: number | null }) => c.p)).toEqual([null, null, null]);
    const badAlpha = await runCli(['leaderboard', '--runs', id, '--alpha', '2'], env);
    expect([badAlpha.code, badAlpha.stderr]).toEqual([
      1,
      'precis: error: --alpha: expected a number in (0, 1), got "2"\n',
    ]);
    const wide = await runCli(['report', id, '--format', 'text', '--wide'], env);
    expect(wide.stdout).not.toContain('Not shown to fit');
    for (const header of hidden![1]!.split(', ')) expect(wide.stdout).toContain(header);

    const bad = await runCli(['runs', 'show', 'ffffffff'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('no run ffffffff');
  }, 150_000);

  it('rejects an invalid spec naming the path of the problem, and changes nothing', async () => {
    const bad = await runCli(['run', 'test/engine/fixtures/specs/bad-chunk-size.yaml'], {
      PRECIS_HOME: home,
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('systems[0].params.chunkSize: expected integer, received string');
  });

  it('rescores published annotations to the hand-computed values', async () => {
    const r = await runCli(
      [
        'rescore',
        'booookscore',
        '--summaries',
        join(RESCORE, 'summaries.json'),
        '--annotations',
        join(RESCORE, 'annotations.json'),
        '--json',
      ],
      {},
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    // In percent, as a run's report gives BooookScore.
    expect(out.systemScore).toBeCloseTo(250 / 3, 10);
    expect(out.summaries).toEqual([
      { id: 'book-a', sentences: 4, confusing: 2, score: 50 },
      { id: 'book-b', sentences: 3, confusing: 0, score: 100 },
      { id: 'book-c', sentences: 2, confusing: 0, score: 100 },
    ]);
    expect(out.unannotated).toEqual(['book-c']);
    expect(out.unmatchedAnnotations).toEqual([
      { id: 'book-a', sentence: 'This sentence is not in the summary at all.' },
    ]);
    expect(out.errorTypesPct['entity omission']).toBeCloseTo(100 / 9, 10);
  });
});
