// The web page's live progress (GET /api/v1/runs/{id}/events) of a run whose stage queue keeps
// failing: each event says what blocks the run while it has work on that stage, and a cancelled
// run's last event counts its ended tasks apart. Real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, RunEntity, type ThrowawayDatabase } from '@precis/db';
import { insertTasks, setRunStatus } from '@precis/engine';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import type { DataSource } from 'typeorm';
import { type RunProgressEvent, runProgressEvents } from '../../src/rest/run-events.js';

const PROBLEM = 'verify queue (stream PRECIS_V1_VERIFY_TASKS): publishing keeps failing: no stream found';

describe('run progress events', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let runId: string;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('int_run_events');
    db = await createDataSource({ url: tdb.url, runMigrations: true });
    const runs = db.getRepository(RunEntity);
    const run = await runs.save(
      runs.create({
        name: 'blocked',
        status: 'running',
        spec: {},
        specSha256: 'x',
        costLimitUsd: null,
        error: null,
      }),
    );
    runId = run.id;
    await insertTasks(db, [
      { id: `${runId}:verify:1`, runId, stage: 'verify', kind: 'verify', payload: {} },
      { id: `${runId}:verify:2`, runId, stage: 'verify', kind: 'verify', payload: {} },
    ]);
    // The verify queue fails in a verifier; the summarize one failed in a process long gone.
    await db.query(
      `INSERT INTO bus_problems (reporter, stage, problem, since, seen_at) VALUES
         ('verifier-1', 'verify', $1, now() - interval '40 seconds', now()),
         ('summarization-1', 'summarize', 'summarize queue: stale', now() - interval '5 minutes', now() - interval '4 minutes')`,
      [PROBLEM],
    );
  }, 60_000);

  afterAll(async () => {
    await db?.destroy();
    await tdb?.drop();
  });

  const data = (e: { data?: unknown }) => e.data as RunProgressEvent;

  it('names the failing queue of a stage the run has open work on', async () => {
    const first = data(await firstValueFrom(runProgressEvents(db, runId)));
    expect([first.status, first.blockedBy, first.tasks.verify]).toEqual([
      'running',
      PROBLEM,
      { total: 2, done: 0, failed: 0, cancelled: 0 },
    ]);
  });

  it('ends with the cancelled run, its open tasks counted as cancelled and nothing blocking', async () => {
    await setRunStatus(db, runId, 'cancelled', 'changed my mind');
    const events = (await lastValueFrom(runProgressEvents(db, runId).pipe(toArray()))).map(data);
    expect(events.map((e) => [e.status, e.blockedBy, e.tasks.verify])).toEqual([
      ['cancelled', null, { total: 2, done: 0, failed: 0, cancelled: 2 }],
    ]);
  });
});
