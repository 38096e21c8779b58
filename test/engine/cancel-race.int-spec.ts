import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, RunEntity, type ThrowawayDatabase } from '@precis/db';
import type { DataSource } from 'typeorm';
import { cancelRun, insertTasks, type NewTask } from '../support/precis.js';

// A run cancelled while its planner inserts tasks (e.g. right after it was submitted) must end
// with no task left open: none is added once it ended, and a cancel that overlaps an insert
// cancels the inserted tasks too.
describe('tasks of a cancelled run', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('cancel_race');
    db = await createDataSource({ url: tdb.url });
  });

  afterAll(async () => {
    await db?.destroy();
    await tdb?.drop();
  });

  const newRun = async (status: 'pending' | 'running') =>
    (
      await db
        .getRepository(RunEntity)
        .save(db.getRepository(RunEntity).create({ name: 'c', status, spec: {}, specSha256: 'x' }))
    ).id;
  const tasks = (runId: string, n: number): NewTask[] =>
    Array.from({ length: n }, (_, i) => ({
      id: `${runId}:verify:s:${i}`,
      runId,
      stage: 'verify',
      kind: 'booookscore-batch',
      payload: { type: 'score-run' },
    }));
  const statuses = async (runId: string) =>
    (
      (await db.query('SELECT status, count(*)::int AS n FROM tasks WHERE run_id = $1 GROUP BY status', [
        runId,
      ])) as { status: string; n: number }[]
    ).map((r) => `${r.status}: ${r.n}`);

  it('adds no task to a run that has ended, and adds them to an open one', async () => {
    const ended = await newRun('pending');
    await cancelRun(db, ended, 'changed my mind');
    expect(await insertTasks(db, tasks(ended, 3))).toEqual([]);
    expect(await statuses(ended)).toEqual([]);

    const open = await newRun('pending');
    expect(await insertTasks(db, tasks(open, 3))).toHaveLength(3);
    expect(await statuses(open)).toEqual(['queued: 3']);
  });

  it('cancels the tasks of an insert that commits after the cancel began', async () => {
    const runId = await newRun('running');
    const planner = db.createQueryRunner();
    await planner.connect();
    try {
      await planner.startTransaction();
      expect(await insertTasks(planner.manager, tasks(runId, 4))).toHaveLength(4);
      // The cancel waits on the run row the insert holds; its tasks are not committed yet.
      const cancelling = cancelRun(db, runId, 'cancelled while planning');
      await new Promise((r) => setTimeout(r, 200));
      await planner.commitTransaction();
      expect((await cancelling).status).toBe('cancelled');
    } finally {
      await planner.release();
    }
    expect(await statuses(runId)).toEqual(['cancelled: 4']);
  });
});
