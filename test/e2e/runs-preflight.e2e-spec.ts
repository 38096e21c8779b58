// A submitted run gets the preflight an embedded `precis run` makes: before anything is stored,
// every model the spec names must have its key variable set on the gateway and answer one cheap
// request. `precis run --remote` then fails as the embedded command does (same message, exit 4)
// with no run and no task. A spec that asks a model for what its registry entry says it cannot do
// is refused before any request, embedded and remote alike (exit 1). Needs the build:
// `npx turbo run build`.

import { realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import { GatewayCallError, insecureAccess } from '../../apps/cli/src/runtime/remote-access.js';
import { RemoteRuns, remoteRunStatus } from '../../apps/cli/src/runtime/remote-runs.js';
import { runCli } from '../../apps/cli/test/run-cli.js';
import type { BenchmarkSpec } from '../support/precis.js';
import { type GatewayStack, startGatewayStack } from './gateway-support.js';
import { repoRoot, tempDir, writeJson } from './runs-support.js';

const STORY = resolve(repoRoot, 'examples/data/the-lighthouse-keeper.md');
const EMBEDDED_REFUSAL = /^precis: error: (.*) \(run [0-9a-f-]{36} failed before any task\)$/s;
const NOTHING_CREATED = '(no run was created or resumed)';

describe('the preflight of a submitted run', () => {
  const tmp = tempDir('precis-preflight-e2e-');
  const modelsFile = join(tmp.dir, 'models.json');
  let fake: FakeLlmServer;
  let stack: GatewayStack;
  let runs: RemoteRuns;

  beforeAll(async () => {
    fake = await startFakeLlmServer({ apiKey: 'right-key', reply: 'Mara keeps the light.' });
    const entry = (apiKeyEnv: string) => ({
      baseURL: fake.baseURL,
      model: 'ok-model',
      apiKeyEnv,
      contextWindow: 4096,
    });
    // The spec files name this registry for the embedded CLI; the gateway reads it as PRECIS_MODELS.
    writeJson(modelsFile, {
      models: {
        locked: entry('LOCKED_KEY'),
        keyless: entry('MISSING_KEY'),
        open: entry('OPEN_KEY'),
        reasoner: { ...entry('OPEN_KEY'), provider: 'openai', model: 'gpt-5-mini' },
      },
    });
    stack = await startGatewayStack({
      name: 'preflight',
      env: {
        PRECIS_MODELS: modelsFile,
        INGEST_ROOT: realpathSync(repoRoot),
        LOCKED_KEY: 'wrong-key',
        OPEN_KEY: 'right-key',
      },
    });
    runs = new RemoteRuns(stack.address, insecureAccess(stack.key));
  }, 120_000);

  afterAll(async () => {
    runs?.close();
    await stack?.stop();
    await fake?.close();
    tmp.remove();
  }, 60_000);

  async function specFile(model: string): Promise<string> {
    const file = join(tmp.dir, `${model}.json`);
    await writeFile(
      file,
      JSON.stringify({
        name: `preflight-${model}`,
        models: 'models.json',
        datasets: [{ name: 'story', kind: 'text', path: STORY }],
        systems: [{ name: 'good', model, strategy: 'incremental', params: { chunkSize: 120 } }],
        metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
      }),
    );
    return file;
  }

  let homes = 0;
  const embedded = (file: string, env: Record<string, string> = {}, ...flags: string[]) =>
    runCli(['run', file, ...flags], { PRECIS_HOME: join(tmp.dir, `home-${++homes}`), ...env });
  const remote = (file: string, ...flags: string[]) =>
    runCli(['--remote', stack.address, 'run', file, ...flags], { PRECIS_API_KEY: stack.key });
  const stored = async () => ({
    runs: Number((await stack.db.query('SELECT COUNT(*) AS n FROM runs'))[0].n),
    tasks: Number((await stack.db.query('SELECT COUNT(*) AS n FROM tasks'))[0].n),
  });
  const post = async (body: unknown) => {
    const res = await fetch(`http://127.0.0.1:${stack.gateway.httpPort}/api/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it('a model whose endpoint answers 401: refused with the embedded message and exit code, nothing stored', async () => {
    const file = await specFile('locked');
    const local = await embedded(file, { LOCKED_KEY: 'wrong-key' });
    expect(local.code).toBe(4);
    const message = EMBEDDED_REFUSAL.exec(local.stderr.trim().split('\n').at(-1) ?? '')?.[1];
    expect(message).toBe(
      `model "locked" at ${fake.baseURL} refused the request with HTTP 401: Incorrect API key provided: Bearer [REDACTED]; not retried: check the API key variable (apiKeyEnv) and its access to this model`,
    );
    const refusedBefore = fake.stats().byStatus['401'] ?? 0;

    // Compared whole, so a failure shows what the CLI printed.
    expect(await remote(file)).toEqual({
      code: 4,
      stdout: '',
      stderr: `precis: error: ${message} ${NOTHING_CREATED}\n`,
    });
    // One request, sent by the gateway; no run, no task.
    expect(fake.stats().byStatus['401']).toBe(refusedBefore + 1);
    expect(await stored()).toEqual({ runs: 0, tasks: 0 });

    // gRPC says FAILED_PRECONDITION, REST 409, with the same text.
    const spec = JSON.parse(await readFile(file, 'utf8')) as BenchmarkSpec;
    const grpc = await runs.createRun(spec).catch((e: unknown) => e);
    expect(grpc).toBeInstanceOf(GatewayCallError);
    expect(grpc).toMatchObject({
      code: status.FAILED_PRECONDITION,
      message: `${message} ${NOTHING_CREATED}`,
    });
    expect(await post({ spec })).toEqual({
      status: 409,
      body: { error: `${message} ${NOTHING_CREATED}`, requestId: expect.any(String) },
    });
    expect(await stored()).toEqual({ runs: 0, tasks: 0 });
    // A refusal is not remembered: each CreateRun asks again, so a fixed key passes at once.
    expect(fake.stats().byStatus['401']).toBe(refusedBefore + 3);
    const logs = JSON.stringify(stack.gateway.logs) + stack.gateway.stderr();
    expect(logs).not.toContain('wrong-key');
    expect(logs).not.toContain('right-key');
  }, 120_000);

  it('a key variable unset on the gateway: refused naming the entry and the variable, never the file', async () => {
    const file = await specFile('keyless');
    const keyUnset = new RegExp(
      `^precis: error: model "keyless" needs an API key but the environment variable MISSING_KEY is not set \\(apiKeyEnv in ${modelsFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\); .* \\(run [0-9a-f-]{36} failed before any task\\)$`,
    );
    for (const flags of [[], ['--no-preflight']]) {
      const local = await embedded(file, {}, ...flags);
      expect(local.code).toBe(4);
      expect(local.stderr.trim().split('\n').at(-1)).toMatch(keyUnset);
    }
    const before = fake.stats().total;

    const expected =
      'precis: error: model "keyless" needs an API key but the environment variable MISSING_KEY is not set on the server (apiKeyEnv of registry entry "keyless" in PRECIS_MODELS); set MISSING_KEY in the environment of the gateway and of every worker, or remove apiKeyEnv for an endpoint without auth ' +
      `${NOTHING_CREATED}\n`;
    expect(await remote(file)).toEqual({ code: 4, stdout: '', stderr: expected });
    // --no-preflight skips the request, not the key check.
    expect(await remote(file, '--no-preflight')).toEqual({ code: 4, stdout: '', stderr: expected });
    expect(fake.stats().total).toBe(before);
    expect(await stored()).toEqual({ runs: 0, tasks: 0 });
  }, 120_000);

  it('a judge temperature the model does not take: exit 1 before any request, --no-preflight too; REST 400', async () => {
    const file = join(tmp.dir, 'judge-t0.json');
    await writeFile(
      file,
      JSON.stringify({
        name: 'preflight-capability',
        models: 'models.json',
        datasets: [{ name: 'story', kind: 'text', path: STORY }],
        systems: [{ name: 'tr', strategy: 'incremental', engine: 'textrank' }],
        metrics: [{ name: 'booookscore', judge: { model: 'reasoner' } }],
      }),
    );
    const requests = fake.stats().total;
    const runsBefore = await stored();
    const message = `metrics[0] (booookscore judge): model "reasoner" (openai, gpt-5-mini) takes only temperature 1, but the judge asks for temperature 0; set metrics[0].judge.temperature: 1 (the judge then samples at 1) or judge with another model ${NOTHING_CREATED}`;
    const refused = { code: 1, stdout: '', stderr: `precis: error: ${message}\n` };
    expect(await embedded(file, { OPEN_KEY: 'right-key' })).toEqual(refused);
    expect(await remote(file)).toEqual(refused);
    expect(await remote(file, '--no-preflight')).toEqual(refused);
    const spec = JSON.parse(await readFile(file, 'utf8')) as BenchmarkSpec;
    const grpc = await runs.createRun(spec).catch((e: unknown) => e);
    expect(grpc).toMatchObject({ code: status.INVALID_ARGUMENT, message });
    expect(await post({ spec, skipPreflight: true })).toEqual({
      status: 400,
      body: { error: message, requestId: expect.any(String) },
    });
    expect(fake.stats().total).toBe(requests);
    expect(await stored()).toEqual(runsBefore);
  }, 120_000);

  it('--no-preflight sends no request; a model that answered is not asked again by a burst of runs', async () => {
    const locked = JSON.parse(await readFile(await specFile('locked'), 'utf8')) as BenchmarkSpec;
    const before = fake.stats().byStatus['401'] ?? 0;
    const { run } = await runs.createRun(locked, { preflight: false });
    expect(remoteRunStatus(run)).toBe('pending');
    expect(fake.stats().byStatus['401'] ?? 0).toBe(before);
    await runs.cancelRun(run.id, 'test over');

    const open = JSON.parse(await readFile(await specFile('open'), 'utf8')) as BenchmarkSpec;
    const answered = fake.stats().byStatus['200'] ?? 0;
    const first = await runs.createRun(open, { fresh: true });
    const second = await runs.createRun(open, { fresh: true });
    expect(second.run.id).not.toBe(first.run.id);
    expect(fake.stats().byStatus['200']).toBe(answered + 1);
  }, 120_000);
});
