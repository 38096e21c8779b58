import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, RunEntity, type ThrowawayDatabase } from '@precis/db';
import type { DataSource } from 'typeorm';
import {
  finishTask,
  insertTasks,
  type NewTask,
  runCounts,
  setRunStatus,
  stageCounts,
} from '../support/precis.js';

// The counters progress and planning read are kept by triggers: they must equal a recount of the
// rows after any mix of inserts, duplicate inserts, grouped updates and redeliveries.
describe.each(['postgres', 'pglite'] as const)('run counters (%s)', (kind) => {
  let tdb: ThrowawayDatabase | undefined;
  let db: DataSource;
  let runId: string;

  beforeAll(async () => {
    if (kind === 'postgres') {
      tdb = await createThrowawayDatabase('runs_counters');
      db = await createDataSource({ url: tdb.url });
    } else {
      db = await createDataSource({ inMemory: true });
    }
    const run = await db
      .getRepository(RunEntity)
      .save(db.getRepository(RunEntity).create({ name: 'c', status: 'running', spec: {}, specSha256: 'x' }));
    runId = run.id;
  });

  afterAll(async () => {
    await db?.destroy();
    await tdb?.drop();
  });

  const task = (stage: 'summarize' | 'verify', n: number): NewTask => ({
    id: `${runId}:${stage}:s:${n}`,
    runId,
    stage,
    kind: stage === 'summarize' ? 'summary-step' : 'booookscore-batch',
    payload: { type: 'score-run' },
  });

  async function recount() {
    const rows: { stage: string; total: string; done: string; failed: string; cancelled: string }[] =
      await db.query(
        `SELECT stage, count(*)::text AS total, count(*) FILTER (WHERE status = 'done')::text AS done,
                count(*) FILTER (WHERE status IN ('failed', 'dead'))::text AS failed,
                count(*) FILTER (WHERE status = 'cancelled')::text AS cancelled
         FROM tasks WHERE run_id = $1 GROUP BY stage ORDER BY stage`,
        [runId],
      );
    return Object.fromEntries(
      rows.map((r) => [
        r.stage,
        {
          total: Number(r.total),
          done: Number(r.done),
          failed: Number(r.failed),
          cancelled: Number(r.cancelled),
        },
      ]),
    );
  }

  it('counts inserted, finished, failed and dead tasks per stage, once each', async () => {
    const summarize = Array.from({ length: 7 }, (_, i) => task('summarize', i));
    const verify = Array.from({ length: 5 }, (_, i) => task('verify', i));
    expect(await insertTasks(db, [...summarize, ...verify])).toHaveLength(12);
    // Planning twice inserts nothing and counts nothing.
    expect(await insertTasks(db, summarize.slice(0, 3))).toEqual([]);
    await db.query(`UPDATE tasks SET status = 'running', attempts = attempts + 1 WHERE run_id = $1`, [runId]);
    expect(await finishTask(db.manager, summarize[0]!.id, 'done', { text: 'a' }, null)).toBe(true);
    // A redelivered finish changes nothing.
    expect(await finishTask(db.manager, summarize[0]!.id, 'done', { text: 'a' }, null)).toBe(false);
    await finishTask(db.manager, summarize[1]!.id, 'failed', null, 'bad');
    await finishTask(db.manager, verify[0]!.id, 'dead', null, 'gave up');
    await db.query(
      `UPDATE tasks SET status = 'done' WHERE run_id = $1 AND stage = 'verify' AND status = 'running'`,
      [runId],
    );
    const expected = {
      summarize: { total: 7, done: 1, failed: 1, cancelled: 0 },
      verify: { total: 5, done: 4, failed: 1, cancelled: 0 },
    };
    expect(await recount()).toEqual(expected);
    expect((await runCounts(db, runId)).tasks).toEqual(expected);
    expect((await stageCounts(db, runId)).summarize).toEqual({
      total: 7,
      done: 1,
      failed: 1,
      cancelled: 0,
      open: 5,
    });
  });

  it('counts summaries and failed units as the summaries settled', async () => {
    await db.query(`INSERT INTO run_counters (run_id, key, total) VALUES ($1, 'summaries', 3)`, [runId]);
    await db.query(
      `INSERT INTO summaries (id, run_id, system, document_id, text, final_step, producer)
       VALUES ($1, $2, 's', gen_random_uuid(), 't', 'f', 'p'), ($3, $2, 's', gen_random_uuid(), 't', 'f', 'p')
       ON CONFLICT (id) DO NOTHING`,
      [`${runId}:a`, runId, `${runId}:b`],
    );
    for (let i = 0; i < 2; i++)
      await db.query(
        `INSERT INTO run_unit_failures (run_id, unit, task_id, error) VALUES ($1, 's:d', 't', 'e')
         ON CONFLICT (run_id, unit) DO NOTHING`,
        [runId],
      );
    expect((await runCounts(db, runId)).summaries).toEqual({ expected: 3, done: 2, failed: 1 });
  });

  it('ends the open tasks of a cancelled run as cancelled, and ignores their late results', async () => {
    await setRunStatus(db, runId, 'cancelled', 'changed my mind');
    const expected = {
      summarize: { total: 7, done: 1, failed: 1, cancelled: 5 },
      verify: { total: 5, done: 4, failed: 1, cancelled: 0 },
    };
    expect(await recount()).toEqual(expected);
    expect((await runCounts(db, runId)).tasks).toEqual(expected);
    expect((await stageCounts(db, runId)).summarize.open).toBe(0);
    // A worker that finishes a cancelled task later changes nothing.
    expect(await finishTask(db.manager, task('summarize', 6).id, 'done', { text: 'late' }, null)).toBe(false);
    const [late] = await db.query('SELECT status, result FROM tasks WHERE id = $1', [
      task('summarize', 6).id,
    ]);
    expect(late).toEqual({ status: 'cancelled', result: null });
    expect(await recount()).toEqual(expected);
  });

  // Two workers finishing two tasks of one stage at once: the second must not wait for the first
  // to commit (a single counter row per stage made every finish queue on its lock).
  it('lets concurrent finishes of one stage go without waiting on each other', async () => {
    if (kind !== 'postgres') return;
    const ids = Array.from({ length: 40 }, (_, i) => `${runId}:verify:w:${i}`);
    // The run was cancelled above: open again, or it takes no tasks.
    await db.query(`UPDATE runs SET status = 'running' WHERE id = $1`, [runId]);
    await insertTasks(
      db,
      ids.map((id) => ({ ...task('verify', 0), id })),
    );
    // Two tasks whose ids fall in different counter shards.
    const [pair] = await db.query(
      `SELECT a.id AS a, b.id AS b FROM unnest($1::text[]) AS a(id), unnest($1::text[]) AS b(id)
        WHERE hashtext(a.id) & 15 <> hashtext(b.id) & 15 LIMIT 1`,
      [ids],
    );
    await db.query(`UPDATE tasks SET status = 'running' WHERE id = ANY($1::text[])`, [[pair.a, pair.b]]);
    const first = db.createQueryRunner();
    const second = db.createQueryRunner();
    try {
      await first.startTransaction();
      expect(await finishTask(first.manager, pair.a, 'done', { v: 1 }, null)).toBe(true);
      await second.startTransaction();
      await second.query(`SET LOCAL lock_timeout = '2s'`);
      expect(await finishTask(second.manager, pair.b, 'done', { v: 2 }, null)).toBe(true);
      await second.commitTransaction();
      await first.commitTransaction();
    } finally {
      await first.release();
      await second.release();
    }
    expect((await runCounts(db, runId)).tasks.verify).toEqual(
      (await recount()).verify as Record<string, number>,
    );
  });
});
