import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import pg from 'pg';
import { assertBuilt, CLI_DIR, REPO_ROOT, runCli } from './run-cli.js';

const { Client } = pg;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const STORY = resolve(REPO_ROOT, 'examples/data/the-lighthouse-keeper.md');

// Each way a run can end, seen as a user sees it: `precis run`'s exit code and its last line.
describe('precis run outcomes and exit codes (built binary)', () => {
  let dir: string;
  let fake: FakeLlmServer;
  let tdb: ThrowawayDatabase;

  beforeAll(async () => {
    assertBuilt();
    dir = await mkdtemp(join(tmpdir(), 'precis-outcomes-'));
    tdb = await createThrowawayDatabase('cli_outcomes');
    fake = await startFakeLlmServer({
      latencyMs: 5,
      capacity: 16,
      rules: [
        { model: 'empty-model', reply: '' },
        { model: 'slow-model', reply: 'Mara keeps the light.', latencyMs: 400 },
        // Six chunks at 1.5 s each: time for another CLI process to start, even on a loaded machine.
        { model: 'slower-model', reply: 'Mara keeps the light.', latencyMs: 1500 },
        // Longer than a `precis runs cancel` process takes to start and cancel, on a loaded machine
        // (8 s was not, with a CI run and four builds on two cores).
        { model: 'slowest-model', reply: 'Mara keeps the light.', latencyMs: 20_000 },
        { match: /./, reply: 'Mara keeps the light. A storm comes. She saves a boat.' },
      ],
    });
    const model = (name: string) => ({
      baseURL: fake.baseURL,
      model: name,
      apiKeyEnv: 'FAKE_KEY',
      contextWindow: 4096,
      maxConcurrency: 8,
      pricePer1MInput: 1,
      pricePer1MOutput: 2,
    });
    await writeFile(
      join(dir, 'models.json'),
      JSON.stringify({
        models: {
          ok: model('ok-model'),
          empty: model('empty-model'),
          slow: model('slow-model'),
          slower: model('slower-model'),
          slowest: model('slowest-model'),
        },
      }),
    );
  });

  afterAll(async () => {
    await fake?.close();
    await tdb?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function spec(name: string, systems: { name: string; model: string }[], limits?: object) {
    const file = join(dir, `${name}.json`);
    await writeFile(
      file,
      JSON.stringify({
        name,
        models: 'models.json',
        cache: false,
        datasets: [{ name: 'story', kind: 'text', path: STORY }],
        systems: systems.map((s) => ({ ...s, strategy: 'incremental', params: { chunkSize: 120 } })),
        metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
        ...(limits ? { limits } : {}),
      }),
    );
    return file;
  }

  const env = (home: string) => ({ PRECIS_HOME: join(dir, home), FAKE_KEY: 'k' });

  it('exits 1 on a bad spec and leaves a fresh PRECIS_HOME uncreated', async () => {
    // The embedded database starts opening before the spec is read (main.ts); a refusal undoes it.
    const file = join(dir, 'bad.json');
    await writeFile(file, JSON.stringify({ name: 'bad', datasets: [], systems: 'none' }));
    const res = await runCli(['run', file], { PRECIS_HOME: join(dir, 'never') });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^precis: error: .*bad\.json: invalid benchmark spec/m);
    expect(res.stderr).toMatch(/systems/);
    await expect(readFile(join(dir, 'never', 'db', 'PG_VERSION'))).rejects.toThrow(/ENOENT/);
    expect(await readdir(dir)).not.toContain('never');
  });

  it('exits 1 naming a model the registry lacks, before importing anything', async () => {
    const file = await spec('no-model', [{ name: 's', model: 'nope' }]);
    const res = await runCli(['run', file], env('no-model'));
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(
      `precis: error: ${file}: invalid benchmark spec\n  - systems[0].model: model "nope" is not in the model registry`,
    );
    const datasets = await runCli(['datasets', 'ls', '--json'], env('no-model'));
    expect(JSON.parse(datasets.stdout)).toEqual([]);
  });

  it('exits 3 when some work failed, 4 when nothing was summarized, 5 at the cost limit', async () => {
    const partial = await runCli(
      [
        'run',
        await spec('partial', [
          { name: 'good', model: 'ok' },
          { name: 'bad', model: 'empty' },
        ]),
      ],
      env('partial'),
    );
    expect(partial.code).toBe(3);
    expect(partial.stderr).toMatch(
      /: completed-with-failures; summaries 1\/2 \(1 failed\); 1 of 2 summaries failed; 1 of \d+ summarize tasks failed/,
    );

    const none = await runCli(['run', await spec('none', [{ name: 'bad', model: 'empty' }])], env('none'));
    expect(none.code).toBe(4);
    expect(none.stderr).toMatch(
      /: failed; summaries 0\/1 \(1 failed\); no summary was produced: 1 of 1 summaries failed/,
    );

    const costly = await runCli(
      ['run', await spec('costly', [{ name: 'good', model: 'ok' }], { costUsd: 0.0002 })],
      env('costly'),
    );
    expect(costly.code).toBe(5);
    expect(costly.stderr).toMatch(
      /: stopped; .*cost limit reached: a call to model "ok" needs \$0\.\d+ reserved, but \$0\.\d+ of the run's \$0\.0002 cost limit is already committed; nothing was sent/,
    );
  });

  it('fails in seconds with one message when the key variable is unset or the endpoint answers 401', async () => {
    const file = await spec('keyless', [{ name: 'good', model: 'ok' }]);
    const before = fake.stats().total;
    const unset = await runCli(['run', file], { PRECIS_HOME: join(dir, 'keyless') });
    expect(unset.code).toBe(4);
    const lines = unset.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^precis: error: .*FAKE_KEY.* \(run [0-9a-f-]{36} failed before any task\)$/);
    expect(fake.stats().total).toBe(before);

    const locked = await startFakeLlmServer({ apiKey: 'right-key', reply: 'Mara keeps the light.' });
    try {
      await writeFile(
        join(dir, 'locked-models.json'),
        JSON.stringify({
          models: {
            ok: { baseURL: locked.baseURL, model: 'ok-model', apiKeyEnv: 'FAKE_KEY', contextWindow: 4096 },
          },
        }),
      );
      const lockedSpec = join(dir, 'locked.json');
      const body = JSON.parse(await readFile(file, 'utf8'));
      await writeFile(lockedSpec, JSON.stringify({ ...body, name: 'locked', models: 'locked-models.json' }));
      const refused = await runCli(['run', lockedSpec], { ...env('locked'), FAKE_KEY: 'wrong-key' });
      expect(refused.code).toBe(4);
      expect(refused.stderr).toMatch(/precis: error: .*401.*\(run [0-9a-f-]{36} failed before any task\)\n$/);
      expect(refused.stderr).not.toContain('wrong-key');
      expect(locked.stats().byStatus['401']).toBe(1);
      // Without the preflight the first step's 401 fails it at once, and no other call is sent.
      const tasks = await runCli(['run', lockedSpec, '--no-preflight'], {
        ...env('locked'),
        FAKE_KEY: 'wrong-key',
      });
      expect(tasks.code).toBe(4);
      expect(tasks.stderr).toMatch(
        /: failed; summaries 0\/1 \(1 failed\); no summary was produced: .*first failure: summarize:good:the-lighthouse-keeper\.md:i\/0: .*401/,
      );
      expect(locked.stats().byStatus['401']).toBe(2);
    } finally {
      await locked.close();
    }
  });

  // These two run three to five CLI processes one after another (15-21 s in CI): room to spare.
  it('exits 130 on SIGINT with a resume hint that selects the same run; the hint resumes it; rm deletes it', async () => {
    const file = await spec('slow', [
      { name: 'slow', model: 'slow' },
      { name: 'good', model: 'ok' },
    ]);
    const first = await interrupted(['run', file, '--systems', 'slow'], env('slow'));
    expect(first.code).toBe(130);
    const id = /started run ([0-9a-f-]{36})/.exec(first.stderr)![1]!;
    expect(first.stderr).toContain(`\`precis run ${file} --systems slow\` resumes it`);
    const listed = async () =>
      JSON.parse((await runCli(['runs', 'ls', '--json'], env('slow'))).stdout) as {
        id: string;
        status: string;
      }[];
    expect((await listed()).find((r) => r.id === id)?.status).toBe('interrupted');

    // The hint's command resumes the same run (finished steps are not redone) and finishes it.
    const resumed = await runCli(['run', file, '--systems', 'slow'], env('slow'));
    expect(resumed.stderr).toContain(`resuming run ${id}`);
    expect(resumed.code).toBe(0);

    const cancel = await runCli(['runs', 'cancel', id.slice(0, 8)], env('slow'));
    expect(cancel.code).toBe(1);
    expect(cancel.stderr).toBe(
      `precis: error: run ${id} is already completed; only a pending, running or interrupted run can be cancelled\n`,
    );
    const removed = await runCli(['runs', 'rm', id], env('slow'));
    expect(removed.stdout).toBe(`deleted run ${id} (slow)\n`);
    expect((await listed()).map((r) => r.id)).not.toContain(id);
  }, 120_000);

  it('shows a run whose process was killed as interrupted, and resumes it', async () => {
    const file = await spec('killed', [{ name: 'slow', model: 'slow' }]);
    const run = spawnCli(['run', file], env('killed'));
    const id = await run.started;
    await new Promise((r) => setTimeout(r, 1000));
    run.child.kill('SIGKILL');
    expect((await run.exit).code).toBe(1);
    const ls = await runCli(['runs', 'ls', '--json'], env('killed'));
    const row = (JSON.parse(ls.stdout) as { id: string; status: string; error: string }[]).find(
      (r) => r.id === id,
    );
    expect(row?.status).toBe('interrupted');
    expect(row?.error).toBe('its process stopped before it finished; run the same spec again to resume it');
    const resumed = await runCli(['run', file], env('killed'));
    expect(resumed.stderr).toContain(`resuming run ${id}`);
    expect(resumed.code).toBe(0);
  }, 120_000);

  it('exits 6 when the run is cancelled from another process while it runs', async () => {
    const db = { DATABASE_URL: tdb.url, FAKE_KEY: 'k' };
    const file = await spec('cancelled', [{ name: 'slowest', model: 'slowest' }]);
    const sql = new Client({ connectionString: tdb.url });
    await sql.connect();
    try {
      const child = spawnCli(['run', file], db);
      const id = await child.started;
      // Cancelled while a task's model call is in flight: its answer comes after the run ended.
      const sent = await taskCallInFlight(sql, id);
      const cancel = await runCli(['runs', 'cancel', id, '--reason', 'wrong model'], db);
      expect({ stdout: cancel.stdout, stderr: cancel.stderr }).toEqual({
        stdout: `run ${id}: cancelled (wrong model)\n`,
        stderr: '',
      });
      const result = await child.exit;
      expect(result.code).toBe(6);
      expect(result.stderr).toContain(`run ${id}: cancelled`);
      // No task is left open, and the late answer was not kept as the task's result.
      const tasks = await sql.query(
        `SELECT stage, status, COUNT(*)::int AS n FROM tasks WHERE run_id = $1 GROUP BY stage, status`,
        [id],
      );
      expect(tasks.rows).toEqual([{ stage: 'summarize', status: 'cancelled', n: 1 }]);
      const late = await sql.query(
        `SELECT t.status, t.result, t.error, c.status AS call
         FROM tasks t JOIN llm_calls c ON c.task_id = t.id WHERE t.id = $1`,
        [sent],
      );
      expect(late.rows).toEqual([
        {
          status: 'cancelled',
          result: null,
          error: 'the run ended (cancelled) before this task finished',
          call: 'ok',
        },
      ]);
      const counters = await sql.query(
        `SELECT sum(total)::int AS total, sum(done)::int AS done, sum(failed)::int AS failed,
                sum(cancelled)::int AS cancelled FROM run_counters WHERE run_id = $1 AND key = 'summarize'`,
        [id],
      );
      expect(counters.rows).toEqual([{ total: 1, done: 0, failed: 0, cancelled: 1 }]);
      const shown = await runCli(['runs', 'show', id], db);
      expect(shown.stdout).toContain('  summarize  0 done, 0 failed, 1 cancelled, 0 open of 1\n');
    } finally {
      await sql.end();
    }
  }, 120_000);
});

// The id of a task whose model call has been sent and not answered yet (preflight calls have none).
async function taskCallInFlight(sql: pg.Client, runId: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { rows } = await sql.query(
      `SELECT task_id FROM llm_calls WHERE run_id = $1 AND task_id IS NOT NULL AND status = 'sent'`,
      [runId],
    );
    if (rows[0]) return rows[0].task_id as string;
    await sleep(50);
  }
  throw new Error(`run ${runId} sent no task's model call within 60 s`);
}

function spawnCli(args: string[], env: Record<string, string>) {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.PRECIS_HOME;
  delete base.NODE_OPTIONS;
  const child = spawn(process.execPath, [resolve(CLI_DIR, 'bin/precis.js'), ...args], {
    cwd: REPO_ROOT,
    env: { ...base, ...env },
  });
  let stderr = '';
  let onStart: (id: string) => void = () => {};
  const started = new Promise<string>((r) => {
    onStart = r;
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    const m = /(?:started|resuming) run ([0-9a-f-]{36})/.exec(stderr);
    if (m) onStart(m[1]!);
  });
  child.stdout.resume();
  const exit = new Promise<{ code: number; stderr: string }>((r) =>
    child.on('close', (code) => r({ code: code ?? 1, stderr })),
  );
  return { child, started, exit };
}

// Starts `precis run`, lets it work a moment after the run started, then sends SIGINT.
async function interrupted(args: string[], env: Record<string, string>) {
  const run = spawnCli(args, env);
  await run.started;
  await new Promise((r) => setTimeout(r, 1500));
  run.child.kill('SIGINT');
  return run.exit;
}
