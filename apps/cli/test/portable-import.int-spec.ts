// `precis import` on hand-made run logs, against a throwaway PostgreSQL database: each way a file
// can be wrong says where (file, line, field) and what to do, and a refused file leaves nothing.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import type { DataSource } from 'typeorm';
import { importRun } from '../src/portable/import-run.js';

type Row = Record<string, unknown>;
const TARGET = 'the test database';
const T0 = '2026-01-02T03:04:05.123456+00:00';

// A small run: one task, one ledger call at 0.5 USD left 'sent', a cost limit far below it.
function runLog(run: string, edit: (lines: Row[]) => void = () => {}): Row[] {
  const task = `${run}:summarize:sys:doc:0`;
  const lines: Row[] = [
    { format: 'precis-run', version: 1, run, name: 'mini', exportedAt: T0, precis: '0.1.0' },
    {
      table: 'runs',
      row: {
        id: run,
        name: 'mini',
        status: 'completed',
        spec: { name: 'mini', datasets: [{ name: 'notes' }] },
        spec_sha256: 'abc',
        cost_limit_usd: '0.0000000100',
        error: null,
        created_at: T0,
        updated_at: T0,
        started_at: T0,
        finished_at: T0,
      },
    },
    {
      table: 'tasks',
      row: {
        id: task,
        run_id: run,
        stage: 'summarize',
        kind: 'chunk',
        status: 'done',
        attempts: 1,
        payload: {},
      },
    },
    {
      table: 'llm_calls',
      row: {
        id: randomUUID(),
        run_id: run,
        task_id: task,
        model: 'm',
        model_id: 'm-1',
        kind: 'chat',
        cache_key: 'k',
        request: { messages: [] },
        status: 'sent',
        cost_usd: '0.5000000000',
        created_at: T0,
      },
    },
    { table: 'run_costs', row: { run_id: run, committed_usd: '0.5000000000' } },
  ];
  edit(lines);
  lines.push({ end: { rows: counts(lines) } });
  return lines;
}

function counts(lines: Row[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const l of lines) if (typeof l.table === 'string') out[l.table] = (out[l.table] ?? 0) + 1;
  return out;
}

describe('precis import: checks and all-or-nothing (PostgreSQL)', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let dir: string;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('portable_import');
    db = await createDataSource({ url: tdb.url });
    dir = await mkdtemp(join(tmpdir(), 'precis-portable-'));
  }, 60_000);

  afterAll(async () => {
    await db?.destroy();
    await tdb?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function file(name: string, lines: Row[] | string): Promise<string> {
    const path = join(dir, name);
    const text = typeof lines === 'string' ? lines : `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
    await writeFile(path, gzipSync(text));
    return path;
  }

  const load = (path: string) => importRun(db, path, TARGET);
  const runRows = async (run: string) =>
    Number((await db.query('SELECT count(*) AS n FROM runs WHERE id = $1', [run]))[0].n);

  it('imports a run with a cost limit below its ledger, then changes nothing the second time', async () => {
    const run = randomUUID();
    const path = await file('mini.jsonl.gz', runLog(run));
    const first = await load(path);
    expect(first.changed).toEqual({ runs: 1, tasks: 1, llm_calls: 1, run_costs: 1 });
    const [stored] = await db.query('SELECT cost_limit_usd, created_at::text AS t FROM runs WHERE id = $1', [
      run,
    ]);
    expect(stored).toEqual({ cost_limit_usd: '0.0000000100', t: '2026-01-02 03:04:05.123456+00' });
    const [cost] = await db.query('SELECT committed_usd FROM run_costs WHERE run_id = $1', [run]);
    expect(cost.committed_usd).toBe('0.5000000000');
    const [counter] = await db.query('SELECT total, done FROM run_counters WHERE run_id = $1', [run]);
    expect(counter).toEqual({ total: 1, done: 1 });
    const again = await load(path);
    expect(again.changed).toEqual({});
    expect(again.rows).toEqual({ runs: 1, tasks: 1, llm_calls: 1, run_costs: 1 });
  });

  it('attaches the ledger rows that `runs rm` left without a run when the run comes back', async () => {
    const run = randomUUID();
    const path = await file('back.jsonl.gz', runLog(run));
    await load(path);
    await db.query('UPDATE llm_calls SET run_id = NULL WHERE run_id = $1', [run]);
    await db.query('DELETE FROM runs WHERE id = $1', [run]);
    expect((await load(path)).changed).toMatchObject({ runs: 1, tasks: 1, llm_calls: 1 });
    const [n] = await db.query('SELECT count(*)::int AS n FROM llm_calls WHERE run_id = $1', [run]);
    expect(n.n).toBe(1);
  });

  it('refuses a run that is there with different content, naming the fields and `runs rm`', async () => {
    const run = randomUUID();
    await load(await file('one.jsonl.gz', runLog(run)));
    const changed = runLog(run, (lines) => {
      Object.assign(lines[1]!.row as Row, { status: 'failed', error: 'boom' });
    });
    const path = await file('two.jsonl.gz', changed);
    await expect(load(path)).rejects.toThrow(
      `${path} line 2: run ${run} already exists in ${TARGET} with different content (status, error differ): ` +
        `to replace it, delete it there first (\`precis runs rm ${run}\`) and import again, or import into another database`,
    );
  });

  it('names the file, line and field of a bad value, and writes nothing', async () => {
    const run = randomUUID();
    const cases: [string, (lines: Row[]) => void, string][] = [
      [
        'attempts',
        (l) => Object.assign(l[2]!.row as Row, { attempts: 'two' }),
        'line 3, field tasks.attempts: expected an integer, got "two"',
      ],
      [
        'column',
        (l) => Object.assign(l[2]!.row as Row, { colour: 'red' }),
        'line 3, field tasks.colour: this database has no such column: the file may come from a newer Precis; upgrade to import it',
      ],
      [
        'missing',
        (l) => delete (l[3]!.row as Row).model,
        'line 4, field llm_calls.model: missing, but this column needs a value',
      ],
      [
        'run',
        (l) => Object.assign(l[3]!.row as Row, { run_id: randomUUID() }),
        'line 4, field llm_calls.run_id: is "',
      ],
      [
        'cost',
        (l) => Object.assign(l[3]!.row as Row, { cost_usd: 'free' }),
        'line 4, field llm_calls.cost_usd: expected a decimal number, got "free"',
      ],
      [
        'table',
        (l) => l.splice(3, 0, { table: 'snapshots', row: {} }),
        'line 4: unknown table "snapshots": the file may come from a newer Precis; upgrade to import it',
      ],
      [
        'order',
        (l) => l.splice(2, 0, l.splice(3, 1)[0]!),
        'line 4: a row of tasks after those of llm_calls: the file is out of order',
      ],
    ];
    for (const [name, edit, message] of cases) {
      const path = await file(`${name}.jsonl.gz`, runLog(run, edit));
      await expect(load(path)).rejects.toThrow(`${path} ${message}`);
    }
    expect(await runRows(run)).toBe(0);
  });

  it('says a file is truncated, from a newer Precis, damaged or no run log at all', async () => {
    const run = randomUUID();
    const lines = runLog(run);
    const text = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
    const whole = gzipSync(text);
    const cut = join(dir, 'cut.jsonl.gz');
    await writeFile(cut, whole.subarray(0, whole.length - 12));
    await expect(load(cut)).rejects.toThrow(
      `${cut} line 6: the gzip data ends here: the file is truncated (copy it again, or export the run again)`,
    );
    const noEnd = await file(
      'no-end.jsonl.gz',
      `${lines
        .slice(0, -1)
        .map((l) => JSON.stringify(l))
        .join('\n')}\n`,
    );
    await expect(load(noEnd)).rejects.toThrow(
      `${noEnd} line 5: the file ends before its closing line: it is truncated (copy it again, or export the run again)`,
    );
    const newer = await file('newer.jsonl.gz', text.replace('"version":1', '"version":2'));
    await expect(load(newer)).rejects.toThrow(
      `${newer} line 1, field version: format version 2 is newer than this Precis reads (1): upgrade Precis to import it`,
    );
    const lost = await file('lost.jsonl.gz', text.replace(/\n\{"table":"tasks".*\n/, '\n'));
    await expect(load(lost)).rejects.toThrow(
      `${lost} line 5, field end.rows.tasks: the file says it holds 1 rows of tasks, but 0 were read: it is damaged; export the run again`,
    );
    const notJson = await file('garbled.jsonl.gz', text.replace('{"table":"tasks"', '{"table":tasks'));
    await expect(load(notJson)).rejects.toThrow(`${notJson} line 3: not JSON (`);
    const other = await file('other.jsonl.gz', '{"name": "a spec"}\n');
    await expect(load(other)).rejects.toThrow(
      `${other} line 1: not a Precis run log (its first line should say "format": "precis-run"); write one with \`precis export <run> --out <file>\``,
    );
    await expect(load(join(dir, 'absent.jsonl.gz'))).rejects.toThrow(
      `${join(dir, 'absent.jsonl.gz')}: no such file`,
    );
    expect(await runRows(run)).toBe(0);
  });
  // The file's dataset `notes` (a document n1 and its summary) beside this database's own copy.
  function withNotes(run: string, sha: string) {
    const [dataset, document] = [randomUUID(), randomUUID()];
    const summary = {
      table: 'summaries',
      row: {
        ...{ id: `${run}:sys:${document}`, run_id: run, system: 'sys', document_id: document },
        ...{ text: 'S', final_step: 'h/0', producer: 'engine:lead' },
      },
    };
    return runLog(run, (lines) => {
      lines.splice(
        2,
        0,
        {
          table: 'datasets',
          row: { id: dataset, name: 'notes', kind: 'jsonl', source_path: '/x', source_sha256: sha },
        },
        {
          table: 'documents',
          row: { id: document, dataset_id: dataset, external_id: 'n1', ordinal: 0, text: 'N' },
        },
        {
          table: 'chunks',
          row: {
            id: randomUUID(),
            document_id: document,
            scheme: 'source',
            kind: 'chunk',
            ordinal: 0,
            text: 'N',
          },
        },
      );
      lines.splice(lines.findIndex((l) => l.table === 'tasks') + 1, 0, summary);
    });
  }

  it("refers to this database's copy of a dataset from the same file, and refuses another file's", async () => {
    const [dataset, document] = [randomUUID(), randomUUID()];
    await db.query(
      `INSERT INTO datasets (id, name, kind, source_path, source_sha256) VALUES ($1, 'notes', 'jsonl', '/y', 'aaa')`,
      [dataset],
    );
    await db.query(
      `INSERT INTO documents (id, dataset_id, external_id, ordinal, text) VALUES ($1, $2, 'n1', 0, 'N')`,
      [document, dataset],
    );
    const run = randomUUID();
    const done = await load(await file('notes.jsonl.gz', withNotes(run, 'aaa')));
    expect(done.sharedDatasets).toEqual(['notes']);
    expect(done.changed).toEqual({ runs: 1, tasks: 1, summaries: 1, llm_calls: 1, run_costs: 1 });
    expect(await db.query('SELECT id, document_id FROM summaries WHERE run_id = $1', [run])).toEqual([
      { id: `${run}:sys:${document}`, document_id: document },
    ]);
    const [docs] = await db.query('SELECT count(*)::int AS n FROM documents WHERE external_id = $1', ['n1']);
    expect(docs.n).toBe(1);

    const other = randomUUID();
    const path = await file('other-notes.jsonl.gz', withNotes(other, 'bbb'));
    await expect(load(path)).rejects.toThrow(
      `${path} line 3: a dataset named "notes" already exists in ${TARGET} with other content (jsonl, sha256 aaa…; ` +
        'the run used jsonl, sha256 bbb…): import into another database, or re-import that dataset there from the file the run used',
    );
    expect(await runRows(other)).toBe(0);
  });
});
