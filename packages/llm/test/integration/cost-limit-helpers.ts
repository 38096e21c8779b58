import { RunEntity } from '@precis/db';
import type { DataSource } from 'typeorm';
import { costUnits, formatCost, parseCost } from '../../src/index.js';

// The calls of these tests: one user message "question NN" (11 characters: ~3 tokens, +6 for the
// message and the reply's priming), maxTokens 40, at $1 / $2 per 1M tokens in / out.
export const question = (i: number) => [
  { role: 'user' as const, content: `question ${String(i).padStart(2, '0')}` },
];
export const PRICES = { pricePer1MInput: '1', pricePer1MOutput: '2' };
export const MAX_TOKENS = 40;
export const RESERVE_TOKENS_IN = 9;
export const RESERVE_UNITS = costUnits(RESERVE_TOKENS_IN, MAX_TOKENS, 10_000n, 20_000n);

export async function createRun(ds: DataSource, costLimitUsd: string | null): Promise<string> {
  const run = await ds
    .getRepository(RunEntity)
    .save({ name: 'cost-limit', spec: {}, specSha256: 'x', costLimitUsd });
  return run.id;
}

export async function ledgerOf(ds: DataSource, runId: string) {
  const [r] = await ds.query(
    `SELECT count(*)::int AS rows,
            coalesce(sum(cost_usd), 0)::text AS cost,
            count(*) FILTER (WHERE status = 'sent')::int AS sent,
            (SELECT committed_usd::text FROM run_costs WHERE run_id = $1) AS committed
       FROM llm_calls WHERE run_id = $1`,
    [runId],
  );
  const fmt = (v: string | null) => (v === null ? null : formatCost(parseCost(v)));
  return { rows: r.rows as number, cost: fmt(r.cost), sent: r.sent as number, committed: fmt(r.committed) };
}
