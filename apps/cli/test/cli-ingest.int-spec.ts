import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { assertBuilt, DATASETS, runCli } from './run-cli.js';

const KGDS = join(DATASETS, 'kgds/KGDS.json');
const KGDS_COUNTS = {
  documents: 100,
  paragraphs: 1437,
  supportingParagraphs: 432,
  utterances: 412,
  opinions: 873,
  keyFacts: 1638,
  nonSupportingFacts: 4996,
};

describe('precis CLI (built binary)', () => {
  let tmp: string;
  let pg: ThrowawayDatabase;

  beforeAll(async () => {
    assertBuilt();
    tmp = await mkdtemp(join(tmpdir(), 'precis-cli-'));
    pg = await createThrowawayDatabase('cli_ingest');
  });

  afterAll(async () => {
    await pg?.drop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('prints help for every command', async () => {
    for (const args of [
      ['--help'],
      ['ingest', '--help'],
      ['datasets', '--help'],
      ['datasets', 'show', '--help'],
    ]) {
      const run = await runCli(args, {});
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Usage: precis');
    }
  });

  it('ingests KGDS into the embedded database and shows its counts', async () => {
    const env = { PRECIS_HOME: join(tmp, 'home') };
    const ingest = await runCli(['ingest', 'kgds', KGDS, '--dataset', 'kgds'], env);
    expect(ingest.stderr).not.toContain('error');
    expect(ingest.code).toBe(0);
    expect(ingest.stdout).toMatch(/dataset kgds \(kgds\): imported into embedded database/);

    const show = await runCli(['datasets', 'show', 'kgds', '--json'], env);
    expect(show.code).toBe(0);
    const dataset = JSON.parse(show.stdout);
    expect(dataset).toMatchObject({ name: 'kgds', kind: 'kgds', sourcePath: KGDS, counts: KGDS_COUNTS });
    expect(dataset.sourceSha256).toMatch(/^[0-9a-f]{64}$/);

    const again = await runCli(['ingest', 'kgds', KGDS, '--dataset', 'kgds', '--json'], env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).status).toBe('unchanged');

    const list = await runCli(['datasets', 'ls', '--json'], env);
    expect(JSON.parse(list.stdout).map((d: { name: string }) => d.name)).toEqual(['kgds']);
    const none = await runCli(['datasets', 'ls', '--kind', 'text', '--json'], env);
    expect(JSON.parse(none.stdout)).toEqual([]);
  });

  it('ingests KGDS into PostgreSQL when DATABASE_URL is set', async () => {
    const env = { PRECIS_HOME: join(tmp, 'unused-home'), DATABASE_URL: pg.url };
    const ingest = await runCli(['ingest', 'kgds', KGDS, '--dataset', 'kgds'], env);
    expect(ingest.code).toBe(0);
    expect(ingest.stdout).toContain('imported into PostgreSQL at');
    const show = await runCli(['datasets', 'show', 'kgds', '--json'], env);
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout).counts).toEqual(KGDS_COUNTS);
    // --database-url selects the same database explicitly.
    const viaFlag = await runCli(['--database-url', pg.url, 'datasets', 'ls', '--json'], {
      PRECIS_HOME: env.PRECIS_HOME,
    });
    expect(JSON.parse(viaFlag.stdout).map((d: { name: string }) => d.name)).toEqual(['kgds']);
  });

  it('exits non-zero with one clear message on bad input and writes nothing', async () => {
    const env = { PRECIS_HOME: join(tmp, 'bad-home') };
    const bad = join(tmp, 'bad.jsonl');
    await writeFile(bad, '{"id":"a","text":"fine"}\n{"id":"b","txt":"typo"}\n');
    const run = await runCli(['ingest', 'jsonl', bad, '--dataset', 'bad'], env);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim()).toBe(
      `precis: error: ${bad}: line 2, field txt: unknown field. Fix: allowed fields are id, text, references, metadata (put extras in metadata)`,
    );
    const list = await runCli(['datasets', 'ls', '--json'], env);
    expect(JSON.parse(list.stdout)).toEqual([]);

    const missing = await runCli(['datasets', 'show', 'nope'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('dataset "nope" not found');

    const kind = await runCli(['ingest', 'csv', bad, '--dataset', 'x'], env);
    expect(kind.code).not.toBe(0);
    expect(kind.stderr).toContain('Allowed choices are kgds, summeval-op, text, jsonl');
  });

  it('refuses a changed file under an existing name unless --replace is given', async () => {
    const env = { DATABASE_URL: pg.url };
    const v1 = join(tmp, 'v1.jsonl');
    const v2 = join(tmp, 'v2.jsonl');
    await writeFile(v1, '{"id":"a","text":"one"}\n');
    await writeFile(v2, '{"id":"a","text":"one"}\n{"id":"b","text":"two"}\n');
    expect((await runCli(['ingest', 'jsonl', v1, '--dataset', 'corpus'], env)).code).toBe(0);
    const conflict = await runCli(['ingest', 'jsonl', v2, '--dataset', 'corpus'], env);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toMatch(/dataset "corpus" already exists with a different file.*--replace/);
    const replaced = await runCli(['ingest', 'jsonl', v2, '--dataset', 'corpus', '--replace', '--json'], env);
    expect(replaced.code).toBe(0);
    expect(JSON.parse(replaced.stdout)).toMatchObject({
      status: 'replaced',
      dataset: { counts: { documents: 2 } },
    });
  });
});
