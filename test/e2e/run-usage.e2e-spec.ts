// A run's ledger as reasoning models leave it (cached prompt tokens, reasoning tokens, requests
// shaped to the model), written through the real ledger store: `runs show` (local and --remote),
// the REST run, report and page view, and gRPC GetRun give the same figures and notes.
// Needs the build: `npx turbo run build` (the gateway and the CLI run from dist).
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GetRunResponse } from '@precis/contracts';
import { RunEntity } from '@precis/db';
import { createTypeOrmLlmStore, type LlmCallRecord } from '@precis/llm';
import { runCli } from '../../apps/cli/test/run-cli.js';
import { builtInFamilies, validateSpec } from '../support/precis.js';
import { answer, authorized, type GatewayStack, startGatewayStack } from './gateway-support.js';
import { repoRoot } from './runs-support.js';

const FIXED = "sampled at the model's fixed temperature 1 (asked 0.5)";
const TOP_P = 'top_p 0.9 not sent (the model refuses it)';

// 5 calls (1 a replay from the cache, so 1 repeated), 11000 tokens in (3072 cached), 1700 out
// (960 reasoning), $0.011. The notes count the calls the results used: the replay once.
const USAGE = {
  calls: 5,
  cacheHits: 1,
  repeated: 1,
  tokensIn: 11000,
  tokensOut: 1700,
  tokensCached: 3072,
  tokensReasoning: 960,
  // No stage of this spec sends calls through provider batches.
  batch: { calls: 0, costUsd: 0, savedUsd: 0, resent: 0 },
};
const USAGE_LINE =
  'usage:    5 model calls (1 from cache, 1 repeated after faults), 11000 tokens in (3072 cached), 1700 out (960 reasoning), $0.0110';
const NOTES = [
  { system: 'hier-gpt5', model: 'gpt5', note: FIXED, calls: 2 },
  { system: 'inc-gpt5', model: 'gpt5', note: FIXED, calls: 1 },
  { system: 'inc-gpt5', model: 'gpt5', note: TOP_P, calls: 1 },
];
const NOTE_LINES = [
  `hier-gpt5 (model gpt5): ${FIXED} — 2 calls`,
  `inc-gpt5 (model gpt5): ${FIXED} — 1 call`,
  `inc-gpt5 (model gpt5): ${TOP_P} — 1 call`,
];

type Call = Pick<LlmCallRecord, 'taskId' | 'model' | 'modelId' | 'cacheKey' | 'tokensIn' | 'tokensOut'> &
  Partial<LlmCallRecord>;

function ledgerRow(runId: string, c: Call): LlmCallRecord {
  return {
    runId,
    kind: 'chat',
    cacheHit: false,
    templateVersion: 'v1',
    request: {},
    response: { choices: [{ message: { content: 'a summary' } }] },
    latencyMs: 5,
    costUsd: '0.0000000000',
    attempts: 1,
    error: null,
    calls: 1,
    ...c,
  };
}

describe("a reasoning model's usage and notes, wherever a run is shown", () => {
  let stack: GatewayStack;
  let runId: string;
  let base: string;

  beforeAll(async () => {
    stack = await startGatewayStack({ name: 'usage' });
    base = `http://127.0.0.1:${stack.gateway.httpPort}`;
    const spec = validateSpec(builtInFamilies, {
      name: 'gpt5-books',
      datasets: [
        { name: 'book', kind: 'text', path: resolve(repoRoot, 'examples/data/the-lighthouse-keeper.md') },
      ],
      systems: [
        { name: 'hier-gpt5', strategy: 'hierarchical', model: 'gpt5', params: { temperature: 0.5 } },
        { name: 'inc-gpt5', strategy: 'incremental', model: 'gpt5', params: { temperature: 0.5, topP: 0.9 } },
        { name: 'hier-4o', strategy: 'hierarchical', model: 'gpt-4o-mini' },
      ],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    });
    const runs = stack.db.getRepository(RunEntity);
    const run = await runs.save(
      runs.create({
        name: 'gpt5-books',
        status: 'completed',
        spec: spec as unknown as Record<string, unknown>,
        specSha256: 'x',
        costLimitUsd: null,
        error: null,
      }),
    );
    runId = run.id;
    const task = (system: string, step: number) => `${runId}:summarize:${system}:doc-1:${step}`;
    const gpt5 = { model: 'gpt5', modelId: 'gpt-5-mini', tokensIn: 3000, tokensCached: 1024 };
    const reasoned = { ...gpt5, tokensOut: 400, tokensReasoning: 256, costUsd: '0.0040000000' };
    const store = createTypeOrmLlmStore(stack.db);
    for (const row of [
      { ...reasoned, taskId: task('hier-gpt5', 0), cacheKey: 'k0', notes: [FIXED] },
      { ...reasoned, taskId: task('hier-gpt5', 1), cacheKey: 'k1', notes: [FIXED] },
      // The same task replayed after a kill: the cache answers at no cost.
      {
        ...reasoned,
        taskId: task('hier-gpt5', 1),
        cacheKey: 'k1',
        cacheHit: true,
        response: null,
        costUsd: '0.0000000000',
        listCostUsd: '0.0040000000',
        notes: [FIXED],
      },
      {
        ...gpt5,
        taskId: task('inc-gpt5', 0),
        cacheKey: 'k2',
        tokensIn: 1000,
        tokensCached: 0,
        tokensOut: 300,
        tokensReasoning: 192,
        costUsd: '0.0020000000',
        notes: [FIXED, TOP_P],
      },
      // A plain model: nothing cached, no reasoning, nothing shaped.
      {
        taskId: task('hier-4o', 0),
        model: 'gpt-4o-mini',
        modelId: 'gpt-4o-mini',
        cacheKey: 'k3',
        tokensIn: 1000,
        tokensOut: 200,
        costUsd: '0.0010000000',
      },
    ])
      await store.record(ledgerRow(runId, row));
    await store.flush();
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${stack.key}` } });
    // biome-ignore lint/suspicious/noExplicitAny: the tests read JSON bodies field by field
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it('runs show: the usage line with its cached and reasoning tokens, then how the models ran', async () => {
    const show = await runCli(['runs', 'show', runId.slice(0, 8)], {
      DATABASE_URL: stack.common.DATABASE_URL,
    });
    expect(show.code).toBe(0);
    expect(show.stdout.split('\n')).toContain(USAGE_LINE);
    expect(show.stdout).toContain(
      `How the models ran\n\nRequests changed to fit the model they went to, per system and model; the calls counted are those the system's results used.\n${NOTE_LINES.join('\n')}\n`,
    );
    const json = await runCli(['runs', 'show', runId, '--json'], { DATABASE_URL: stack.common.DATABASE_URL });
    expect(JSON.parse(json.stdout)).toMatchObject({ usage: { ...USAGE, costUsd: 0.011 }, modelNotes: NOTES });
  });

  it('runs show --remote: the same usage line from the gateway', async () => {
    const show = await runCli(['--remote', stack.address, 'runs', 'show', runId], {
      PRECIS_API_KEY: stack.key,
    });
    expect(show.code).toBe(0);
    expect(show.stdout.split('\n')).toContain(USAGE_LINE);
  });

  it('REST and gRPC: the run carries its usage; the report and the page view its notes', async () => {
    const show = await get(`/api/v1/runs/${runId}`);
    expect([show.status, show.body.run.costUsd, show.body.run.usage]).toEqual([200, 0.011, USAGE]);
    // A listed run has no usage (GET of one run only).
    expect((await get('/api/v1/runs')).body.runs[0].usage).toBeNull();
    const report = await get(`/api/v1/runs/${runId}/report`);
    expect(report.body.modelNotes).toEqual(NOTES);
    const view = await get(`/api/v1/runs/${runId}/view`);
    // Every call settled: nothing reserved in flight.
    expect(view.body.usage).toEqual({ ...USAGE, costUsd: 0.011, reservedUsd: 0 });
    expect(view.body.blocks.find((b: { key: string }) => b.key === 'model-notes').list).toEqual(NOTE_LINES);
    const grpc = await answer<GetRunResponse>(authorized(stack.key), (md, opts, cb) =>
      stack.runs.getRun({ runId }, md, opts, cb),
    );
    expect([grpc.value?.run?.costUsd, grpc.value?.run?.usage]).toEqual([0.011, USAGE]);
  });
});
