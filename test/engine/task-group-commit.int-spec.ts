import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createDataSource,
  createThrowawayDatabase,
  databaseStatements,
  RunEntity,
  SummaryEntity,
  type ThrowawayDatabase,
} from '@precis/db';
import { inDistinctRounds, TurnBatcher } from '@precis/db/group-commit';
import { createTypeOrmLlmStore, withLedgerScope } from '@precis/llm';
import type { DataSource } from 'typeorm';
import {
  claimTask,
  type DimensionJudgmentWrite,
  finishDimensionJudgment,
  finishTask,
  finishTaskWithJudgments,
  inputTaskResult,
  insertTasks,
  type JudgmentRow,
  summaryText,
} from '../support/precis.js';

describe('TurnBatcher', () => {
  it('runs the calls of one event-loop turn as one batch, in order, and settles each', async () => {
    const batches: number[][] = [];
    const b = new TurnBatcher(async (xs: number[]) => {
      batches.push(xs);
      return xs.map((x) => x * 10);
    });
    const first = await Promise.all([b.submit(1), b.submit(2), b.submit(3)]);
    const second = await b.submit(4);
    expect(first).toEqual([10, 20, 30]);
    expect(second).toBe(40);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('gathers what is submitted while a batch is written into the next batch', async () => {
    const batches: number[][] = [];
    let finishFirst = () => {};
    const b = new TurnBatcher(async (xs: number[]) => {
      batches.push(xs);
      if (batches.length === 1) await new Promise<void>((r) => (finishFirst = r));
      return xs;
    });
    const first = b.submit(1);
    await new Promise((r) => setImmediate(r));
    const later = [b.submit(2), b.submit(3)];
    await new Promise((r) => setImmediate(r));
    const last = b.submit(4);
    await new Promise((r) => setTimeout(r, 20));
    // Nothing else is written while the first batch is open.
    expect(batches).toEqual([[1]]);
    finishFirst();
    expect(await Promise.all([first, ...later, last])).toEqual([1, 2, 3, 4]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('retries a failed batch item by item, so only the bad item fails', async () => {
    const batches: number[][] = [];
    const b = new TurnBatcher(async (xs: number[]) => {
      batches.push(xs);
      if (xs.includes(13)) throw new Error('unlucky');
      return xs;
    });
    const results = await Promise.allSettled([b.submit(1), b.submit(13), b.submit(3)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(batches).toEqual([[1, 13, 3], [1], [13], [3]]);
  });

  it('splits a turn into batches of at most maxBatch', async () => {
    const sizes: number[] = [];
    const b = new TurnBatcher(
      async (xs: number[]) => {
        sizes.push(xs.length);
        return xs;
      },
      { maxBatch: 4 },
    );
    await Promise.all(Array.from({ length: 10 }, (_, i) => b.submit(i)));
    expect(sizes).toEqual([4, 4, 2]);
  });

  it('without retryEach, fails every caller of a failed batch and runs nothing again', async () => {
    const batches: number[][] = [];
    const b = new TurnBatcher(
      async (xs: number[]) => {
        batches.push(xs);
        throw new Error('database gone');
      },
      { retryEach: false },
    );
    const results = await Promise.allSettled([b.submit(1), b.submit(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(batches).toEqual([[1, 2]]);
  });

  it('puts an item that repeats a key into a later round, and answers in input order', async () => {
    const rounds: string[][] = [];
    const out = await inDistinctRounds(
      ['a1', 'b1', 'a2', 'c1', 'a3', 'b2'],
      (x) => [x[0]!],
      async (xs) => {
        rounds.push(xs);
        return xs.map((x) => `${x}@${rounds.length}`);
      },
    );
    expect(rounds).toEqual([['a1', 'b1', 'c1'], ['a2', 'b2'], ['a3']]);
    expect(out).toEqual(['a1@1', 'b1@1', 'a2@2', 'c1@1', 'a3@3', 'b2@2']);
  });
});

describe('grouped task claims and judgment finishes on PostgreSQL', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let runId: string;
  // Task k of the run's verify stage.
  const id = (k: string) => `${runId}:verify:${k}`;
  // One verify task of `kind` per key, its payload `{ type: kind, ...payload(k) }`.
  const insertVerifyTasks = (
    kind: 'judge-dimension' | 'booookscore-batch',
    keys: string[],
    payload: (k: string) => Record<string, unknown>,
  ) =>
    insertTasks(
      db,
      keys.map((k) => ({
        id: id(k),
        runId,
        stage: 'verify' as const,
        kind,
        payload: { type: kind, ...payload(k) } as never,
      })),
    );

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('runs_group_commit');
    db = await createDataSource({ url: tdb.url });
    const run = await db.getRepository(RunEntity).save({
      name: 'group-commit',
      status: 'running',
      spec: {},
      specSha256: 'x',
      costLimitUsd: null,
      error: null,
    });
    runId = run.id;
    await insertVerifyTasks('judge-dimension', ['a', 'b', 'c', 'd'], (key) => ({ key }));
    await finishTask(db.manager, id('d'), 'done', {}, null);
  }, 60_000);

  afterAll(async () => {
    await db?.destroy();
    await tdb?.drop();
  });

  it('claims concurrent tasks in one turn: a duplicate delivery gets nothing, a finished task is skipped, the others are marked running', async () => {
    const claims = await Promise.all([
      claimTask(db, id('a')),
      claimTask(db, id('b')),
      claimTask(db, id('a')),
      claimTask(db, id('d')),
      claimTask(db, id('missing')),
    ]);
    expect(claims.map((c) => c?.id ?? null)).toEqual([id('a'), id('b'), null, null, null]);
    expect(claims[0]).toMatchObject({ runId, stage: 'verify', kind: 'judge-dimension', attempts: 1 });
    expect(claims[0]!.payload).toEqual({ type: 'judge-dimension', key: 'a' });
    const rows: { id: string; status: string; attempts: number }[] = await db.query(
      'SELECT id, status, attempts FROM tasks WHERE run_id = $1 ORDER BY id',
      [runId],
    );
    expect(rows.map((r) => [r.id.slice(-1), r.status, r.attempts])).toEqual([
      ['a', 'running', 1],
      ['b', 'running', 1],
      ['c', 'queued', 0],
      ['d', 'done', 0],
    ]);
  });

  it('finishes concurrent judgments in one turn; a repeated finish of a task writes nothing twice', async () => {
    const write = (k: string, value: number): DimensionJudgmentWrite => ({
      taskId: id(k),
      status: 'done',
      result: { score: value },
      error: null,
      runId,
      summaryId: `summary-${k}`,
      documentId: `00000000-0000-4000-8000-00000000000${'abc'.indexOf(k) + 1}`,
      system: 'sys',
      judgmentId: `judgment-${k}`,
      metricValueId: `value-${k}`,
      metric: 'dimension:fluency',
      value,
      details: { n: 1 },
      judge: 'model:judge',
      template: 'op-i@1',
      producedBy: 'model:judge op-i@1',
    });
    const finished = await Promise.all([
      finishDimensionJudgment(db, write('a', 4)),
      finishDimensionJudgment(db, write('b', 3)),
      // The same task again in the same turn (a redelivery racing the first): it loses.
      finishDimensionJudgment(db, write('a', 2)),
      finishDimensionJudgment(db, write('c', 5)),
    ]);
    expect(finished).toEqual([true, true, false, true]);
    // Later, once more: already finished, nothing changes.
    expect(await finishDimensionJudgment(db, write('b', 1))).toBe(false);
    const tasks: { id: string; status: string; result: { score: number } }[] = await db.query(
      `SELECT id, status, result FROM tasks WHERE run_id = $1 AND id <> $2 ORDER BY id`,
      [runId, id('d')],
    );
    expect(tasks.map((t) => [t.id.slice(-1), t.status, t.result.score])).toEqual([
      ['a', 'done', 4],
      ['b', 'done', 3],
      ['c', 'done', 5],
    ]);
    const judgments: { id: string; task_id: string; status: string }[] = await db.query(
      'SELECT id, task_id, status FROM judgments WHERE run_id = $1 ORDER BY id',
      [runId],
    );
    expect(judgments.map((j) => j.id)).toEqual(['judgment-a', 'judgment-b', 'judgment-c']);
    const values: { id: string; value: number; produced_by: string }[] = await db.query(
      'SELECT id, value, produced_by FROM metric_values WHERE run_id = $1 ORDER BY id',
      [runId],
    );
    expect(values.map((v) => [v.id, v.value])).toEqual([
      ['value-a', 4],
      ['value-b', 3],
      ['value-c', 5],
    ]);
  });

  it('finishes concurrent annotation tasks with their judgments in one turn; a racing duplicate writes nothing', async () => {
    await insertVerifyTasks('booookscore-batch', ['e', 'f', 'g'], (key) => ({ key }));
    const rows = (k: string, status: string, units: number[]): JudgmentRow[] =>
      units.map((unit) => ({
        id: `bs-${k}-${unit}`,
        runId,
        summaryId: `summary-${k}`,
        system: 'sys',
        metric: 'booookscore.0',
        unit,
        status,
        verdict: { confusing: unit === 2, by: k },
        judge: 'model:judge',
        templateVersion: 'annotate-batch@1',
        taskId: id(k),
      }));
    const finished = await Promise.all([
      finishTaskWithJudgments(db, id('e'), 'done', { n: 2 }, null, rows('e', 'ok', [1, 2])),
      finishTaskWithJudgments(
        db,
        id('f'),
        'failed',
        null,
        'judge gave no parseable answer',
        rows('f', 'failed', [1]),
      ),
      // A redelivery of e racing the first in the same turn, with other verdicts: it loses.
      finishTaskWithJudgments(db, id('e'), 'done', { n: 9 }, null, rows('e', 'ok', [1, 2, 3])),
      finishTaskWithJudgments(db, id('g'), 'done', { n: 0 }, null, []),
    ]);
    expect(finished).toEqual([true, true, false, true]);
    expect(await finishTaskWithJudgments(db, id('g'), 'done', { n: 5 }, null, rows('g', 'ok', [1]))).toBe(
      false,
    );
    const tasks: { id: string; status: string; result: { n: number } | null; error: string | null }[] =
      await db.query('SELECT id, status, result, error FROM tasks WHERE id = ANY($1) ORDER BY id', [
        [id('e'), id('f'), id('g')],
      ]);
    expect(tasks.map((t) => [t.id.slice(-1), t.status, t.result?.n ?? null, t.error])).toEqual([
      ['e', 'done', 2, null],
      ['f', 'failed', null, 'judge gave no parseable answer'],
      ['g', 'done', 0, null],
    ]);
    const judgments: { id: string; status: string; verdict: { by: string } }[] = await db.query(
      `SELECT id, status, verdict FROM judgments WHERE run_id = $1 AND id LIKE 'bs-%' ORDER BY id`,
      [runId],
    );
    expect(judgments.map((j) => [j.id, j.status])).toEqual([
      ['bs-e-1', 'ok'],
      ['bs-e-2', 'ok'],
      ['bs-f-1', 'failed'],
    ]);
  });

  it('reads the summary a claimed judge task judges along with the claim, once per summary', async () => {
    const summaryId = `${runId}:summary:claimed`;
    await db.getRepository(SummaryEntity).insert({
      id: summaryId,
      runId,
      system: 'sys',
      documentId: '00000000-0000-4000-8000-00000000000a',
      text: 'One sentence. Another sentence.',
      finalStep: 'test',
      producer: 'test',
    });
    await insertVerifyTasks('booookscore-batch', ['j', 'k'], () => ({ summaryId }));
    const claimed = await Promise.all([claimTask(db, id('j')), claimTask(db, id('k'))]);
    expect(claimed.map((c) => c?.payload)).toEqual([
      { type: 'booookscore-batch', summaryId },
      { type: 'booookscore-batch', summaryId },
    ]);
    // Gone from the database now, the text is still at hand: the claim brought it along.
    await db.query('DELETE FROM summaries WHERE id = $1', [summaryId]);
    expect(await summaryText(db, summaryId)).toBe('One sentence. Another sentence.');
  });

  it('reads the finished task a claimed task names as its input along with the claim; an open one later', async () => {
    await insertVerifyTasks('judge-dimension', ['in-done', 'in-open'], (key) => ({ key }));
    await finishTask(db.manager, id('in-done'), 'done', { parts: 'read along' }, null);
    await insertVerifyTasks('judge-dimension', ['p', 'q'], () => ({ inputTask: id('in-done') }));
    await insertVerifyTasks('judge-dimension', ['r'], () => ({ inputTask: id('in-open') }));
    await Promise.all([claimTask(db, id('p')), claimTask(db, id('q')), claimTask(db, id('r'))]);
    // Changed in the database now, the claim's copy is what is at hand, with no statement more.
    await db.query(`UPDATE tasks SET result = '{"parts": "changed"}' WHERE id = $1`, [id('in-done')]);
    const before = databaseStatements();
    expect(await inputTaskResult(db, id('in-done'))).toEqual({ parts: 'read along' });
    expect(databaseStatements() - before).toBe(0);
    // An input not finished at the claim is read when asked for, and not remembered while it has no result.
    expect(await inputTaskResult(db, id('in-open'))).toBeNull();
    await finishTask(db.manager, id('in-open'), 'done', { parts: 'finished later' }, null);
    expect(await inputTaskResult(db, id('in-open'))).toEqual({ parts: 'finished later' });
  });

  // The call's 'sent' row went out before its request; the row that settles it waits in the
  // task's ledger scope and is written by the statement that finishes the task.
  it("writes a task's settled ledger row in the statement that finishes it", async () => {
    await insertVerifyTasks('booookscore-batch', ['h'], (key) => ({ key }));
    const store = createTypeOrmLlmStore(db);
    const call = {
      id: randomUUID(),
      runId,
      taskId: id('h'),
      model: 'judge',
      modelId: 'judge-1',
      kind: 'chat' as const,
      cacheKey: 'key-h',
      cacheHit: false,
      templateVersion: null,
      request: { messages: [] },
      response: null,
      tokensIn: 10,
      tokensOut: 0,
      latencyMs: 0,
      costUsd: '0.0000000000',
      attempts: 0,
      error: null,
      calls: 1,
    };
    const statuses = async () =>
      (await db.query('SELECT status FROM llm_calls WHERE task_id = $1', [id('h')])).map(
        (r: { status: string }) => r.status,
      );
    const seen: string[][] = [];
    let statements = 0;
    await withLedgerScope(id('h'), async () => {
      await store.recordSent({ ...call, status: 'sent' });
      await store.record({ ...call, status: 'ok', response: { answer: 'yes' }, tokensOut: 3, attempts: 1 });
      seen.push(await statuses());
      const before = databaseStatements();
      expect(await finishTaskWithJudgments(db, id('h'), 'done', { n: 0 }, null, [])).toBe(true);
      statements = databaseStatements() - before;
    });
    expect(seen).toEqual([['sent']]);
    expect(statements).toBe(1);
    const [row] = await db.query('SELECT status, response, tokens_out FROM llm_calls WHERE task_id = $1', [
      id('h'),
    ]);
    expect(row).toEqual({ status: 'ok', response: { answer: 'yes' }, tokens_out: 3 });
  });
});
