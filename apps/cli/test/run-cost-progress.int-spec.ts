// The cost `precis run` shows while calls go out and settle: each call's ledger row is written
// 'sent' at its reserved cost and settled in place at its (lower) real cost, through the real
// ledger store. The spent figure never goes down; what calls in flight reserved is said apart;
// the run's cost-limit accounting (run_costs) still counts both.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, RunEntity, type ThrowawayDatabase } from '@precis/db';
import { runListFigures, usageSoFar } from '@precis/engine';
import { createTypeOrmLlmStore, type LlmCallRecord, type LlmStore } from '@precis/llm';
import type { DataSource } from 'typeorm';
import { plainProgress } from '../src/runtime/run-progress.js';

describe('the running cost of a run', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let store: LlmStore;
  let run: RunEntity;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('run_cost_progress');
    db = await createDataSource({ url: tdb.url });
    store = createTypeOrmLlmStore(db);
    run = await db
      .getRepository(RunEntity)
      .save({ name: 'cost', spec: { datasets: [{ name: 'book' }] }, specSha256: 'x', costLimitUsd: '5' });
  }, 60_000);

  afterAll(async () => {
    await db?.destroy();
    await tdb?.drop();
  });

  const call = (id: string, costUsd: string, status: 'sent' | 'ok'): LlmCallRecord => ({
    id,
    status,
    runId: run.id,
    taskId: `${run.id}:summarize:sys:doc-1:${id}`,
    model: 'chat',
    modelId: 'fake-chat',
    kind: 'chat',
    cacheKey: id,
    cacheHit: false,
    templateVersion: 'v1',
    request: {},
    response: status === 'ok' ? { choices: [] } : null,
    tokensIn: status === 'ok' ? 100 : 0,
    tokensOut: status === 'ok' ? 20 : 0,
    latencyMs: 5,
    costUsd,
    attempts: 1,
    error: null,
    calls: 1,
  });
  const send = (id: string) => store.recordSent(call(id, '0.2500000000', 'sent'));
  const settle = (id: string, cost: string) => store.record(call(id, cost, 'ok'));

  // What the progress line says of the cost, the ledger's sum of every row (what it said before),
  // and the run's committed cost that its limit is checked against.
  async function state() {
    const usage = await usageSoFar(db, run.id);
    const counts = { summarize: { total: 4, done: 0, failed: 0, cancelled: 0, open: 4 } };
    const line = plainProgress(counts, usage, new Map(), 0).progress.split(' | ')[1]!;
    const [committed] = await db.query('SELECT committed_usd FROM run_costs WHERE run_id = $1', [run.id]);
    return {
      line: line.replace(/^\d+ model calls, \d+ tokens, /, ''),
      spent: usage.costUsd,
      everyRow: Number((usage.costUsd + usage.reservedUsd).toFixed(10)),
      committed: Number(committed.committed_usd),
    };
  }

  it('shows the spent cost, which only grows, and the reserve of calls in flight apart', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const states = [];
    await send(a);
    await send(b);
    states.push(await state());
    await settle(a, '0.0675000000');
    states.push(await state());
    await send(c);
    states.push(await state());
    await settle(b, '0.0100000000');
    await settle(c, '0.0200000000');
    states.push(await state());
    expect(states.map((s) => s.line)).toEqual([
      '$0.0000 spent (+$0.5000 reserved in flight)',
      '$0.0675 spent (+$0.2500 reserved in flight)',
      '$0.0675 spent (+$0.5000 reserved in flight)',
      '$0.0975',
    ]);
    const spent = states.map((s) => s.spent);
    expect(spent).toEqual([0, 0.0675, 0.0675, 0.0975]);
    for (let i = 1; i < spent.length; i++) expect(spent[i]).toBeGreaterThanOrEqual(spent[i - 1]!);
    // The sum of every row, the figure shown before, went down as calls settled below their reserve.
    expect(states.map((s) => s.everyRow)).toEqual([0.5, 0.3175, 0.5675, 0.0975]);
    // The cost limit still counts calls in flight at their reserve.
    expect(states.map((s) => s.committed)).toEqual([0.5, 0.3175, 0.5675, 0.0975]);
    // A list of runs reads the same figures.
    const listed = (await runListFigures(db, [run])).get(run.id)!;
    expect([listed.costUsd, listed.reservedUsd, listed.datasets]).toEqual([0.0975, 0, ['book']]);
  });
});
