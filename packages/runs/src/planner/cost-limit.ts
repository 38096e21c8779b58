import { toNumber } from '@precis/db';
import type { RunContext } from './run-context.js';
import type { RunPlanner } from './run-planner.js';

// Stops the run once its ledger reached its cost limit (calls sent and not yet settled count at
// their reserved cost). True when this check stopped it.
export async function checkCostLimit(ctx: RunContext, planner: RunPlanner): Promise<boolean> {
  const limit = planner.costLimitUsd;
  if (limit === null) return false;
  const rows: { spent: unknown }[] = await ctx.db.query(
    'SELECT COALESCE(SUM(cost_usd), 0) AS spent FROM llm_calls WHERE run_id = $1',
    [planner.runId],
  );
  const spent = toNumber(rows[0]?.spent as string);
  if (spent < limit) return false;
  await planner.finish('stopped', `cost limit reached: $${spent.toFixed(4)} spent of the $${limit} limit`);
  ctx.logger.warn('run stopped at its cost limit', { runId: planner.runId, spent });
  return true;
}
