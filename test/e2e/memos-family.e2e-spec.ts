// A benchmark family from outside the tree (test/fixtures/family-memos: its own dataset kind,
// parser, strategy, prompt, metric and report section), loaded with PRECIS_FAMILIES: imported
// with `precis ingest`, run embedded and across the services, and reported the same both ways.
// Needs the build: `npx turbo run build` (the CLI and services run from dist).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase } from '@precis/db';
import { type FakeLlmServer, freePort, loadRulesFile, startFakeLlmServer } from '@precis/testing';
import { type CliRun, runCli } from '../../apps/cli/test/run-cli.js';
import { startService } from '../../packages/service/test/support/service-process.js';
import { buildMemosFamily, MEMOS, MEMOS_MODULE, memosModels } from './memos-support.js';
import { deleteBusStreams, repoRoot, startCluster, tempDir, writeJson } from './runs-support.js';

// A section's rows as every report format ranks them.
type SectionRow = {
  system: string;
  rank: number | null;
  score: number | null;
  ciLow: number;
  ciHigh: number;
};
type JsonReport = {
  run: { id: string; status: string };
  sections: { key: string; title: string; rows: SectionRow[] }[];
};

const board = (stdout: string) => {
  const report = JSON.parse(stdout) as JsonReport;
  const section = report.sections.find((s) => s.key === 'memos.keyword-recall')!;
  return {
    title: section.title,
    rows: section.rows.map((r) => [r.system, r.rank, r.score, r.ciLow, r.ciHigh]),
  };
};

// Keyword recall of each system's six headlines (18 keywords), in percent: `lead-20`'s first 20
// words name 16 keywords, `lead-8`'s 12, the fake writer's "Memo: <first six words>" 8.
const EXPECTED = {
  title: 'Memo headlines: keyword recall',
  systems: [
    ['lead-20', 1, '88.888889'],
    ['lead-8', 2, '66.666667'],
    ['writer', 3, '44.444444'],
  ],
};

const expectOk = (r: CliRun) =>
  expect({ code: r.code, stderr: r.code ? r.stderr : '' }).toEqual({ code: 0, stderr: '' });

describe('a benchmark family loaded with PRECIS_FAMILIES', () => {
  const tmp = tempDir('precis-memos-');
  let fake: FakeLlmServer;
  let models: string;
  let embeddedRows: unknown[];

  beforeAll(async () => {
    buildMemosFamily();
    fake = await startFakeLlmServer({
      latencyMs: 5,
      capacity: 16,
      rules: loadRulesFile(join(MEMOS, 'fake/memos.rules.json')),
    });
    models = writeJson(join(tmp.dir, 'models.json'), memosModels(fake.baseURL));
  }, 60_000);

  afterAll(async () => {
    await fake?.close();
    tmp.remove();
  });

  const embedded = { PRECIS_HOME: join(tmp.dir, 'home'), PRECIS_FAMILIES: MEMOS_MODULE };

  it('imports memos with `precis ingest memo`, runs them embedded and ranks the systems', async () => {
    const ingest = await runCli(
      ['ingest', 'memo', 'data/office.memo', '--dataset', 'office'],
      embedded,
      MEMOS,
    );
    expectOk(ingest);
    expect(ingest.stdout).toBe(
      `dataset office (memo): imported into embedded database in ${embedded.PRECIS_HOME}/db\n  memos=6 keywords=18\n`,
    );
    const run = await runCli(['run', 'memos.yaml', '--models', models], embedded, MEMOS);
    expectOk(run);
    expect(run.stdout).toContain('Memo headlines: keyword recall, ranked by recall % [keyword-recall]');
    const id = /started run (\S+)/.exec(run.stderr)![1]!;
    const report = await runCli(['report', id, '--format', 'json'], embedded, MEMOS);
    expectOk(report);
    const shown = board(report.stdout);
    const systems = shown.rows.map(([system, rank, score]) => [system, rank, (score as number).toFixed(6)]);
    expect({ title: shown.title, systems }).toEqual(EXPECTED);
    embeddedRows = shown.rows;
  }, 120_000);

  it('says which family a run needs when it is not loaded, and changes nothing', async () => {
    const bare = { PRECIS_HOME: embedded.PRECIS_HOME };
    const runs = await runCli(['runs', 'ls', '--json'], bare, MEMOS);
    const [{ id }] = JSON.parse(runs.stdout) as { id: string }[];
    const report = await runCli(['report', id!], bare, MEMOS);
    expect([report.code, report.stderr]).toEqual([
      1,
      `precis: error: run ${id} uses strategy "headline", metric "keyword-recall", which no loaded benchmark family defines: load the family that does (PRECIS_FAMILIES), as when the run was made\n`,
    ]);
    const ingest = await runCli(['ingest', 'memo', 'data/office.memo', '--dataset', 'again'], bare, MEMOS);
    expect(ingest.code).toBe(1);
    expect(ingest.stderr).toContain("error: command-argument value 'memo' is invalid for argument 'kind'.");
    const datasets = await runCli(['datasets', 'ls', '--json'], bare, MEMOS);
    expect((JSON.parse(datasets.stdout) as { name: string }[]).map((d) => d.name)).toEqual(['office']);
  }, 60_000);

  it('stops the CLI and a service with one line when PRECIS_FAMILIES names no family', async () => {
    const how =
      "give a package name or a path to the family's built module (e.g. ./my-family/dist/index.js), which exports `family` (or a default export) made with the BenchmarkFamily interface of @precis/engine/family";
    const cli = await runCli(['datasets', 'ls'], { ...embedded, PRECIS_FAMILIES: 'memos.yaml' }, MEMOS);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/^precis: error: PRECIS_FAMILIES: cannot load "memos\.yaml": /);
    expect(cli.stderr.endsWith(`; ${how}\n`)).toBe(true);
    const twice = await runCli(
      ['datasets', 'ls'],
      { ...embedded, PRECIS_FAMILIES: `${MEMOS_MODULE},./dist/index.js` },
      MEMOS,
    );
    expect([twice.code, twice.stderr]).toEqual([
      1,
      `precis: error: PRECIS_FAMILIES: benchmark family "memos" is loaded twice (${MEMOS_MODULE}, ./dist/index.js); name each family once\n`,
    ]);
    const proc = startService(repoRoot, 'verifier', {
      PRECIS_FAMILIES: 'node:path',
      HTTP_PORT: String(await freePort()),
    });
    expect((await proc.exited).code).toBe(1);
    expect(proc.stderr()).toBe(
      `verifier: PRECIS_FAMILIES: "node:path" exports no benchmark family; ${how}\n`,
    );
  }, 60_000);

  it('gives the same leaderboard across the services, imported and run through the gateway', async () => {
    expect(embeddedRows).toBeDefined();
    const prefix = `e2e_memos_${randomBytes(4).toString('hex')}`;
    const tdb = await createThrowawayDatabase('e2e_memos_cluster');
    const db = await createDataSource({ url: tdb.url, runMigrations: true });
    await db.destroy();
    const cluster = await startCluster({
      databaseUrl: tdb.url,
      prefix,
      modelsFile: models,
      verifiers: 1,
      sharedEnv: { PRECIS_FAMILIES: MEMOS_MODULE },
    });
    try {
      await cluster.start('ingestion', 'ingestion');
      const remote = (args: string[]) =>
        runCli(
          ['--remote', cluster.grpcAddress, ...args],
          { PRECIS_API_KEY: cluster.access.key, PRECIS_FAMILIES: MEMOS_MODULE },
          MEMOS,
        );
      const ingest = await remote(['ingest', 'memo', 'data/office.memo', '--dataset', 'office']);
      expectOk(ingest);
      expect(ingest.stdout).toContain('memos=6 keywords=18');
      const run = await remote(['run', 'memos.yaml']);
      expectOk(run);
      const id = /run (\S+)/.exec(run.stderr)![1]!;
      const report = await remote(['report', id, '--format', 'json']);
      expectOk(report);
      expect(board(report.stdout).rows).toEqual(embeddedRows);
    } finally {
      await cluster.stopAll();
      await tdb.drop();
      await deleteBusStreams(prefix);
    }
  }, 240_000);
});
