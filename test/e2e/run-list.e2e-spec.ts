// Lists of runs carry each run's own figures (task counts, spent cost, datasets, its primary
// metric's best system), the same over REST, gRPC and `precis runs ls` (local and --remote); and
// BooookScore reads one number, in percent, in every output. A model-backed book run (fake LLM
// server, judge scripted so every third sentence is confusing) in the gateway's database.
// Needs the build: `npx turbo run build` (the gateway and the CLI run from dist).

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createInProcessBus } from '@precis/bus';
import type { ListRunsResponse, Run } from '@precis/contracts';
import { prepareImport } from '@precis/ingest';
import { createTypeOrmLlmStore, LlmClient, loadModelRegistry } from '@precis/llm';
import { type FakeLlmServer, parseRules, startFakeLlmServer } from '@precis/testing';
import { runCli } from '../../apps/cli/test/run-cli.js';
import {
  builtInFamilies,
  createRun,
  createRunContext,
  executeRun,
  stageCounts,
  usageSoFar,
} from '../support/precis.js';
import { answer, authorized, type GatewayStack, startGatewayStack } from './gateway-support.js';
import { bookSpec, judgeRules, registryObject } from './runs-support.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read JSON bodies field by field
type Body = Record<string, any>;

// The fixed summary has 4 sentences, the second confusing: 75; the incremental one 5, the second
// and fifth confusing: 60.
const SCORES: Record<string, number> = { 'hier-fake': 75, 'inc-fake': 60 };

describe('run lists and BooookScore in every output', () => {
  let stack: GatewayStack;
  let fake: FakeLlmServer;
  let runId: string;
  let pendingId: string;
  let base: string;

  beforeAll(async () => {
    stack = await startGatewayStack({ name: 'runlist' });
    base = `http://127.0.0.1:${stack.gateway.httpPort}`;
    fake = await startFakeLlmServer({ latencyMs: 1, capacity: 64, rules: parseRules(judgeRules()) });
    const registry = loadModelRegistry(registryObject(fake.baseURL));
    const chat = new LlmClient({ registry, env: {}, store: createTypeOrmLlmStore(stack.db) });
    const bus = createInProcessBus();
    const ctx = createRunContext({
      prepareImport,
      families: builtInFamilies,
      db: stack.db,
      bus,
      chat,
      registry,
    });
    const { run } = await createRun(ctx, { spec: bookSpec({ name: 'listed' }), file: 'spec', text: '' });
    await executeRun(ctx, bus, run.id, { concurrency: 4 });
    runId = run.id;
    // A run created and never started: nothing counted, spent or scored yet.
    const pending = await createRun(ctx, { spec: bookSpec({ name: 'not-started' }), file: 'spec', text: '' });
    pendingId = pending.run.id;
    await bus.close();
    await chat.close();
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await fake?.close();
  });

  const get = async (path: string): Promise<Body> => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${stack.key}` } });
    expect(res.status).toBe(200);
    return (await res.json()) as Body;
  };

  it("lists each run with the task counts, cost, datasets and best score of the run's own page", async () => {
    const { runs } = await get('/api/v1/runs');
    const row = runs.find((r: Body) => r.id === runId);
    const { run: own } = await get(`/api/v1/runs/${runId}`);
    const [usage, counts, report] = await Promise.all([
      usageSoFar(stack.db, runId),
      stageCounts(stack.db, runId),
      get(`/api/v1/runs/${runId}/report`),
    ]);
    // Every task of every stage done: the counts the run page and `runs show` give.
    const total = Object.values(counts).reduce((n, c) => n + c.total, 0);
    expect(total).toBeGreaterThan(10);
    expect([row.taskCounts.done, row.taskCounts.failed, row.taskCounts.open]).toEqual([total, 0, 0]);
    expect(row.taskCounts['score.done']).toBe(1);
    expect(row.taskCounts).toEqual(own.taskCounts);
    // The ledger's spend, to the last digit, and nothing reserved once every call settled.
    expect(usage.costUsd).toBeGreaterThan(0);
    expect([row.costUsd, row.reservedUsd]).toEqual([usage.costUsd, 0]);
    expect([own.costUsd, own.reservedUsd]).toEqual([usage.costUsd, 0]);
    expect(row.datasets).toEqual(['lighthouse']);
    // The primary metric: the first section's ranking column and its best row by mean.
    const [section] = report.sections;
    expect(section.rows[0].system).toBe('hier-fake');
    const headline = {
      section: 'booookscore.0',
      title: 'BooookScore (coherence)',
      metric: 'BooookScore',
      system: 'hier-fake',
      score: 75,
      higherIsBetter: true,
      // One document: no system can be shown better, all three share rank =1.
      rankLabel: '=1',
      tiedWith: 2,
    };
    expect(row.headline).toEqual(headline);
    expect(own.headline).toEqual(headline);
    const pending = runs.find((r: Body) => r.id === pendingId);
    expect([pending.taskCounts, pending.costUsd, pending.reservedUsd, pending.headline]).toEqual([
      {},
      0,
      0,
      null,
    ]);
  });

  it('gives the same figures over gRPC ListRuns', async () => {
    const listed = await answer<ListRunsResponse>(authorized(stack.key), (md, o, cb) =>
      stack.runs.listRuns({ status: 0, limit: 0, pageSize: 10, pageToken: '' }, md, o, cb),
    );
    const row = listed.value!.runs.find((r: Run) => r.id === runId)!;
    const rest = (await get('/api/v1/runs')).runs.find((r: Body) => r.id === runId);
    expect({
      taskCounts: row.taskCounts,
      costUsd: row.costUsd,
      reservedUsd: row.reservedUsd,
      datasets: row.datasets,
      headline: row.headline,
    }).toEqual({
      taskCounts: rest.taskCounts,
      costUsd: rest.costUsd,
      reservedUsd: 0,
      datasets: ['lighthouse'],
      headline: rest.headline,
    });
  });

  it('gives the same figures in `precis runs ls`, local and --remote', async () => {
    const local = await runCli(['runs', 'ls', '--json'], { DATABASE_URL: stack.common.DATABASE_URL });
    const remote = await runCli(['--remote', stack.address, 'runs', 'ls', '--json'], {
      PRECIS_API_KEY: stack.key,
    });
    expect([local.code, remote.code]).toEqual([0, 0]);
    const [l, r] = [local, remote].map(
      (x) => (JSON.parse(x.stdout) as Body[]).find((row) => row.id === runId)!,
    );
    const usage = await usageSoFar(stack.db, runId);
    const counts = await stageCounts(stack.db, runId);
    for (const row of [l, r]) {
      expect(row.tasks).toEqual(counts);
      expect([row.costUsd, row.reservedUsd, row.datasets]).toEqual([usage.costUsd, 0, ['lighthouse']]);
      expect([row.best.metric, row.best.system, row.best.score]).toEqual(['BooookScore', 'hier-fake', 75]);
    }
    const total = Object.values(counts).reduce((n, c) => n + c.total, 0);
    const table = await runCli(['--remote', stack.address, 'runs', 'ls'], { PRECIS_API_KEY: stack.key });
    const line = table.stdout.split('\n').find((x) => x.startsWith(runId.slice(0, 8)))!;
    expect(line).toContain(` lighthouse `);
    expect(line).toContain(` ${total}/0/0 `);
    expect(line).toContain(` $${usage.costUsd.toFixed(4)} `);
    expect(line).toMatch(/ BooookScore 75\.0 \(hier-fake, rank =1 with 2 others\)$/);
  });

  it('reads BooookScore in percent in the JSON report, CSV, text, samples, page and comparison', async () => {
    const env = { PRECIS_API_KEY: stack.key };
    const report = await get(`/api/v1/runs/${runId}/report`);
    const rows = report.sections[0].rows as Body[];
    const scored = Object.fromEntries(rows.map((r) => [r.system, r.score]));
    expect([scored['hier-fake'], scored['inc-fake']]).toEqual([75, 60]);
    // CSV and text, rendered by the gateway.
    const csv = await runCli(['--remote', stack.address, 'report', runId, '--format', 'csv'], env);
    const lines = csv.stdout.split('\n');
    const header = lines[0]!.split(',');
    const [system, column] = [header.indexOf('system'), header.indexOf('BooookScore')];
    const csvScores = Object.fromEntries(
      lines
        .filter((l) => l.startsWith('booookscore.0,'))
        .map((l) => [l.split(',')[system], l.split(',')[column]]),
    );
    expect([csvScores['hier-fake'], csvScores['inc-fake']]).toEqual(['75', '60']);
    const text = await runCli(
      ['--remote', stack.address, 'report', runId, '--format', 'text', '--wide'],
      env,
    );
    for (const [system, score] of Object.entries(SCORES)) {
      const row = text.stdout.split('\n').find((l) => new RegExp(`^=?\\d+ +${system} `).test(l))!;
      expect(row).toContain(` ${score.toFixed(1)} `);
    }
    // Each summary's value (one document: the system's score), the page and the comparison.
    const samples = (await get(`/api/v1/runs/${runId}/samples?limit=100`)).samples as Body[];
    const values = Object.fromEntries(
      samples.filter((s) => s.metric === 'booookscore.0').map((s) => [s.system, s.value]),
    );
    expect([values['hier-fake'], values['inc-fake']]).toEqual([75, 60]);
    const view = await get(`/api/v1/runs/${runId}/view`);
    const points = Object.fromEntries(view.figures[0].points.map((p: Body) => [p.system, p.score]));
    expect([points['hier-fake'], points['inc-fake']]).toEqual([75, 60]);
    const compared = await get(`/api/v1/leaderboard?runs=${runId}&metric=booookscore.0`);
    const means = Object.fromEntries(compared.entries.map((e: Body) => [e.system, e.mean]));
    expect([means['hier-fake'], means['inc-fake']]).toEqual([75, 60]);
  });
});
