// deleteRun removes a run's judgments itself (they have no foreign key to runs), also those of a
// finish that commits while the deletion waits for its task.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, RunEntity, type ThrowawayDatabase } from '@precis/db';
import type { DataSource } from 'typeorm';
import { deleteRun, finishTaskWithJudgments, insertTasks, type JudgmentRow } from '../support/precis.js';

describe('deleteRun', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('runs_delete');
    db = await createDataSource({ url: tdb.url });
  }, 60_000);

  afterAll(async () => {
    await db?.destroy();
    await tdb?.drop();
  });

  // A run with one open verify task per key (tasks are added to an open run only).
  const run = async (keys: string[]) => {
    const r = await db.getRepository(RunEntity).save({
      name: 'delete-run',
      status: 'running',
      spec: {},
      specSha256: 'x',
      costLimitUsd: null,
      error: null,
    });
    await insertTasks(
      db,
      keys.map((k) => ({
        id: `${r.id}:verify:${k}`,
        runId: r.id,
        stage: 'verify' as const,
        kind: 'judge-dimension',
        payload: { type: 'judge-dimension' } as never,
      })),
    );
    return r.id;
  };
  const complete = (runId: string) =>
    db.getRepository(RunEntity).update({ id: runId }, { status: 'completed' });
  const judgment = (runId: string, k: string, unit: number): JudgmentRow => ({
    id: `${runId}:${k}:${unit}`,
    runId,
    summaryId: `summary-${k}`,
    system: 'sys',
    metric: 'm',
    unit,
    status: 'ok',
    verdict: { unit },
    judge: 'model:judge',
    templateVersion: null,
    taskId: `${runId}:verify:${k}`,
  });
  const judgmentsOf = async (runId: string) =>
    Number((await db.query('SELECT count(*) AS n FROM judgments WHERE run_id = $1', [runId]))[0].n);

  it("deletes the run's judgments and leaves another run's", async () => {
    const [gone, kept] = [await run(['a']), await run(['a'])];
    for (const r of [gone, kept])
      await finishTaskWithJudgments(db, `${r}:verify:a`, 'done', null, null, [
        judgment(r, 'a', 0),
        judgment(r, 'a', 1),
      ]);
    await complete(gone);
    await deleteRun(db, gone);
    expect([await judgmentsOf(gone), await judgmentsOf(kept)]).toEqual([0, 2]);
  });

  it('waits for a finish under way and deletes what it wrote; a later finish writes nothing', async () => {
    const runId = await run(['a', 'b']);
    await complete(runId);
    // A finish in progress: its task row updated and its judgment written, not yet committed.
    const finish = db.createQueryRunner();
    await finish.startTransaction();
    await finish.query(`UPDATE tasks SET status = 'done' WHERE id = $1`, [`${runId}:verify:a`]);
    await finish.query(
      `INSERT INTO judgments (id, run_id, summary_id, system, metric, unit, status, verdict, judge, task_id)
       VALUES ($1, $2, 'summary-a', 'sys', 'm', 0, 'ok', '{}', 'model:judge', $3)`,
      [`${runId}:a:0`, runId, `${runId}:verify:a`],
    );
    const deleting = deleteRun(db, runId);
    await new Promise((r) => setTimeout(r, 300));
    await finish.commitTransaction();
    await finish.release();
    await deleting;
    expect(await judgmentsOf(runId)).toBe(0);
    // The other task is gone with the run: finishing it now finds nothing to finish.
    const late = await finishTaskWithJudgments(db, `${runId}:verify:b`, 'done', null, null, [
      judgment(runId, 'b', 0),
    ]);
    expect(late).toBe(false);
    expect(await judgmentsOf(runId)).toBe(0);
  });
});
