import { SummaryEntity } from '@precis/db';
import {
  askParsed,
  type BenchmarkSpec,
  ConfigurationError,
  type JudgeCall,
  type RunContext,
  retrieveTaskId,
  taskResult,
  taskSystem,
} from '@precis/engine/family';
import { LEXICAL_PERSPECTIVES } from '@precis/engines';
import type { PromptTemplate } from '@precis/prompts';
import type { DataSource } from 'typeorm';
import { judgeModel, type PersphereMetricSpec, SYSTEM_VERIFY_TEMPERATURE } from '../persphere-spec.js';
import { loadQuery, type PersphereQuery } from '../query.js';
import { RETRIEVE_STEP, type RetrieveResult } from '../retrieve/retrieve-task.js';
import { PersphereTaskError } from '../summary/summarize-task.js';
import type { PersphereVerifyPayload } from './persphere-metric.js';

export const OFFLINE = `engine:${LEXICAL_PERSPECTIVES} (heuristic)`;

// Who answers a verify task's prompts: a registry model (re-asked until parseable) or the
// offline lexical engine (call undefined).
export interface Asker {
  call?: JudgeCall;
  label: string;
}

export interface VerifyContext {
  db: DataSource;
  query: PersphereQuery;
  summaryText: string;
  // The system's retrieved documents (its T_k), best first.
  retrieved: string[];
  metric: PersphereMetricSpec;
  // The metric's judge (overall, Rp) and the system's own summarizer (stance, reference).
  judge: Asker;
  system: Asker;
}

export function ask<T>(
  asker: Asker,
  template: PromptTemplate,
  vars: Record<string, string>,
  parse: (text: string, templateId: string) => T,
): Promise<T> {
  const call = { ...asker.call!, benchmark: 'PerSphere', fail: (m: string) => new PersphereTaskError(m) };
  return askParsed(call, template, vars, parse).then((r) => r.value);
}

export async function loadVerifyContext(
  ctx: RunContext,
  ref: { id: string; runId: string },
  p: PersphereVerifyPayload,
  spec: BenchmarkSpec,
): Promise<VerifyContext> {
  const metric = spec.metrics[p.metricIndex] as PersphereMetricSpec | undefined;
  if (metric?.name !== 'persphere')
    throw new ConfigurationError(
      `task ${ref.id}: metrics[${p.metricIndex}] is no longer a persphere metric; start a new run with --fresh`,
    );
  const system = taskSystem(spec, p.system, ref.id);
  const [query, summary, retrieve] = await Promise.all([
    loadQuery(ctx.db, p.documentId),
    ctx.db.getRepository(SummaryEntity).findOne({ select: { text: true }, where: { id: p.summaryId } }),
    taskResult<RetrieveResult>(ctx.db, retrieveTaskId(ref.runId, p.system, p.documentId, RETRIEVE_STEP)),
  ]);
  if (!summary) throw new Error(`summary ${p.summaryId} is gone from the database`);
  const hits = retrieve?.hits ?? [];
  const base = {
    ctx,
    task: ref,
    attempts: metric.maxAttempts,
    cache: spec.cache,
    overrides: spec.templateOverrides,
  };
  const model = judgeModel(metric);
  return {
    db: ctx.db,
    query,
    summaryText: summary.text,
    retrieved: hits.map((h) => h.id),
    metric,
    judge: model
      ? {
          call: { ...base, model, temperature: 'temperature' in metric.judge ? metric.judge.temperature : 0 },
          label: `model:${model}`,
        }
      : { label: OFFLINE },
    system: system.model
      ? {
          call: { ...base, model: system.model, temperature: SYSTEM_VERIFY_TEMPERATURE },
          label: `model:${system.model}`,
        }
      : { label: OFFLINE },
  };
}
