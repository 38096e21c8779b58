// `precis export` from the embedded database and `precis import` into PostgreSQL (and back into
// another embedded home), as a user runs them: the report, the leaderboard and every row of the
// run come out the same there, and importing a file again changes nothing.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import pg from 'pg';
import { PORTABLE_TABLES } from '../src/portable/portable-format.js';
import { assertBuilt, REPO_ROOT, runCli } from './run-cli.js';

const STORY = resolve(REPO_ROOT, 'examples/data/the-lighthouse-keeper.md');
const UUID = /"run": \{\s+"id": "([0-9a-f-]{36})"/;

describe('precis export / import (built binary)', () => {
  let dir: string;
  let fake: FakeLlmServer;
  let tdb: ThrowawayDatabase;
  const ids: { quick: string; model: string } = { quick: '', model: '' };

  beforeAll(async () => {
    assertBuilt();
    dir = await mkdtemp(join(tmpdir(), 'precis-portable-cli-'));
    tdb = await createThrowawayDatabase('cli_portable');
    fake = await startFakeLlmServer({ reply: 'Mara keeps the light. A storm comes. She saves a boat.' });
    const model = { baseURL: fake.baseURL, model: 'ok-model', apiKeyEnv: 'FAKE_KEY', contextWindow: 4096 };
    await writeFile(
      join(dir, 'models.json'),
      JSON.stringify({ models: { ok: { ...model, pricePer1MInput: 1 } } }),
    );
    await writeFile(
      join(dir, 'model-run.json'),
      JSON.stringify({
        name: 'model-run',
        models: 'models.json',
        datasets: [{ name: 'story', kind: 'text', path: STORY }],
        systems: [{ name: 'inc-ok', model: 'ok', strategy: 'incremental', params: { chunkSize: 120 } }],
        metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
        // A cost limit: the run's committed cost travels with it.
        limits: { costUsd: 5 },
      }),
    );
  }, 60_000);

  afterAll(async () => {
    await fake?.close();
    await tdb?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const embedded = (home = 'home') => ({ PRECIS_HOME: join(dir, home), FAKE_KEY: 'k' });
  const postgres = () => ({ DATABASE_URL: tdb.url });
  const file = (name: string) => join(dir, `${name}.jsonl.gz`);
  // Every line of a run log but the first (which says when it was written).
  const rowsOf = async (path: string) =>
    gunzipSync(await readFile(path))
      .toString('utf8')
      .split('\n')
      .slice(1);

  async function rowCounts(): Promise<Record<string, number>> {
    const client = new pg.Client({ connectionString: tdb.url });
    await client.connect();
    try {
      const counts: Record<string, number> = {};
      for (const t of PORTABLE_TABLES)
        counts[t.name] = Number((await client.query(`SELECT count(*) AS n FROM ${t.name}`)).rows[0].n);
      return counts;
    } finally {
      await client.end();
    }
  }

  // Eighteen CLI processes (runs, exports, imports, reports): about a minute on 2 cores.
  it('exports two embedded runs, imports them into PostgreSQL twice: same reports, same rows', async () => {
    const quick = await runCli(['run', 'examples/quickstart.yaml', '--json'], embedded());
    expect(quick.code).toBe(0);
    ids.quick = UUID.exec(quick.stdout)![1]!;
    const model = await runCli(['run', join(dir, 'model-run.json'), '--json'], embedded());
    expect(model.stderr).toContain(': completed; summaries 1/1');
    ids.model = UUID.exec(model.stdout)![1]!;

    // Counter rows are shards (by task id hash): how many depends on the run's ids.
    const out = await runCli(['export', ids.quick.slice(0, 8), '--out', file('quick')], embedded());
    expect(out.stdout).toMatch(
      new RegExp(
        `^exported run ${ids.quick} \\(quickstart-lighthouse\\) to ${file('quick')}: runs 1, datasets 1, ` +
          'documents 1, chunks 16, tasks 15, summaries 3, verdicts 20, metric values 6, counters \\d+; \\d+\\.\\d KiB\n$',
      ),
    );
    const outModel = await runCli(['export', ids.model, '--out', file('model')], embedded());
    expect(outModel.stderr).toBe('');
    expect(outModel.stdout).toMatch(
      /: runs 1, datasets 1, documents 1, chunks 16, tasks \d+, .*ledger calls \d+, counters \d+, committed cost 1; /,
    );

    const imported = await runCli(['--database-url', tdb.url, 'import', file('quick')], {});
    expect(imported.stdout).toBe(
      `imported run ${ids.quick} (quickstart-lighthouse) into PostgreSQL at ${tdb.url}: runs 1, datasets 1, ` +
        'documents 1, chunks 16, tasks 15, summaries 3, verdicts 20, metric values 6, counters 1\n',
    );
    expect((await runCli(['import', file('model')], postgres())).code).toBe(0);

    for (const id of [ids.quick, ids.model]) {
      const here = await runCli(['report', id, '--format', 'json'], embedded());
      const there = await runCli(['report', id, '--format', 'json'], postgres());
      expect(there.code).toBe(0);
      expect(there.stdout).toBe(here.stdout);
    }
    const board = await runCli(['leaderboard', '--runs', ids.model], postgres());
    expect(board.code).toBe(0);
    expect(board.stdout).toContain('inc-ok');
    expect(board.stdout).toBe((await runCli(['leaderboard', '--runs', ids.model], embedded())).stdout);

    const counts = await rowCounts();
    expect(counts.llm_calls).toBeGreaterThan(3);
    const again = await runCli(['import', file('model')], postgres());
    expect(again.stdout).toBe(
      `run ${ids.model} (model-run) is already in PostgreSQL at ${tdb.url} as the file has it: nothing changed\n`,
    );
    expect((await runCli(['import', file('quick')], postgres())).code).toBe(0);
    expect(await rowCounts()).toEqual(counts);

    // Exported again from PostgreSQL, each row is the row the embedded database exported.
    expect((await runCli(['export', ids.model, '--out', file('model-pg')], postgres())).code).toBe(0);
    expect(await rowsOf(file('model-pg'))).toEqual(await rowsOf(file('model')));
  }, 300_000);

  it('imports into another embedded home, and the report there is the same', async () => {
    const res = await runCli(['import', file('model-pg')], embedded('other'));
    expect(res.stdout).toMatch(
      new RegExp(`^imported run ${ids.model} \\(model-run\\) into embedded database in `),
    );
    const there = await runCli(['report', ids.model, '--format', 'json'], embedded('other'));
    expect(there.stdout).toBe((await runCli(['report', ids.model, '--format', 'json'], embedded())).stdout);
  }, 120_000);

  it('says which line of a file is wrong, how to replace a run that differs, where it cannot write', async () => {
    const nowhere = join(dir, 'no-such-folder', 'run.jsonl.gz');
    const unwritable = await runCli(['export', ids.quick, '--out', nowhere], postgres());
    expect(unwritable.stderr).toBe(
      `precis: error: cannot write ${nowhere} (ENOENT): check that its folder exists and is writable\n`,
    );
    const whole = await readFile(file('quick'));
    await writeFile(file('cut'), whole.subarray(0, Math.floor(whole.length / 2)));
    const cut = await runCli(['import', file('cut')], postgres());
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(
      new RegExp(
        `^precis: error: ${file('cut')} line \\d+: the gzip data ends here: the file is truncated \\(copy it again, or export the run again\\)\n$`,
      ),
    );
    const renamed = gunzipSync(whole)
      .toString('utf8')
      .replace(`"id":"${ids.quick}","name":"quickstart-lighthouse"`, `"id":"${ids.quick}","name":"renamed"`);
    await writeFile(file('renamed'), gzipSync(renamed));
    const refused = await runCli(['import', file('renamed')], postgres());
    expect(refused.stderr).toBe(
      `precis: error: ${file('renamed')} line 2: run ${ids.quick} already exists in PostgreSQL at ${tdb.url} ` +
        `with different content (name differs): to replace it, delete it there first (\`precis runs rm ${ids.quick}\`) ` +
        'and import again, or import into another database\n',
    );
  }, 60_000);
});
