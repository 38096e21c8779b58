import { SummaryEntity } from '@precis/db';
import type { ScoringInput } from '../family/benchmark-family.js';
import type { RunContext } from '../planner/run-context.js';
import { runDocuments } from '../planner/run-documents.js';
import type { BenchmarkSpec } from '../spec/benchmark-spec.schema.js';

// The engine's own task kind: one per run, once every unit settled and nothing is open.
export const SCORE_TASK_KIND = 'score-run';

// The run's summaries in run order (spec datasets, then ordinal), then by id: values reach every
// mean and bootstrap in that order, never in database order, so the same spec and seed give the
// same report.
async function scoringInput(ctx: RunContext, runId: string, spec: BenchmarkSpec): Promise<ScoringInput> {
  const runDocs = await runDocuments(ctx, spec);
  const order = new Map(runDocs.map((d, i) => [d.id, i]));
  const summaries = (
    await ctx.db.getRepository(SummaryEntity).find({ where: { runId }, order: { id: 'ASC' } })
  )
    .map((s) => Object.assign(s, { order: order.get(s.documentId) ?? Number.MAX_SAFE_INTEGER }))
    .sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
  return { runId, spec, summaries, runDocuments: runDocs.length };
}

// Every loaded family scores the run (each writes its metric values); the task's result joins
// what they return, in family order.
export async function scoreRun(
  ctx: RunContext,
  runId: string,
  spec: BenchmarkSpec,
): Promise<Record<string, unknown>> {
  const input = await scoringInput(ctx, runId, spec);
  const result: Record<string, unknown> = {};
  for (const family of ctx.families.families) {
    if (family.score) Object.assign(result, await family.score(ctx, input));
  }
  return result;
}
