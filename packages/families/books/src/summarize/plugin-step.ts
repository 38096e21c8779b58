import type { RunContext, SystemSpec } from '@precis/engine/family';
import { createTypeOrmLlmStore } from '@precis/llm';
import { PluginCaller, PluginError, type PluginStep, SummaryRole } from '@precis/plugins';
import type { DataSource } from 'typeorm';
import type { SummarizeStepPayload } from '../payloads.js';

// One caller per database in a process: its concurrency caps and Describe answers are shared.
const callers = new WeakMap<DataSource, PluginCaller>();

const ROLES: Record<SummarizeStepPayload['step']['role'], SummaryRole> = {
  chunk: SummaryRole.SUMMARY_ROLE_CHUNK,
  merge: SummaryRole.SUMMARY_ROLE_MERGE,
  initial: SummaryRole.SUMMARY_ROLE_INITIAL,
  update: SummaryRole.SUMMARY_ROLE_UPDATE,
  compress: SummaryRole.SUMMARY_ROLE_COMPRESS,
  clean: SummaryRole.SUMMARY_ROLE_CLEAN,
  full: SummaryRole.SUMMARY_ROLE_FULL,
};

// The step as precis.v1.SummarizeRequest puts it: the inputs in order and the prior context.
function pluginStep(payload: SummarizeStepPayload, system: SystemSpec): PluginStep {
  const { step } = payload;
  const input = step.input;
  const texts =
    step.role === 'merge'
      ? (input.summaries ?? [])
      : step.role === 'compress' || step.role === 'clean'
        ? [input.summary ?? '']
        : [input.text ?? ''];
  const priorContext = step.role === 'update' ? (input.summary ?? '') : (input.context ?? '');
  return {
    role: ROLES[step.role],
    texts,
    priorContext,
    budgetWords: step.role === 'clean' ? 0 : step.budgetWords,
    params: Object.fromEntries(
      Object.entries(system.params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    ),
    documentId: payload.documentId,
    level: step.level ?? 0,
    index: step.index ?? 0,
    system: system.name,
  };
}

// One strategy step served by the system's plugin, with the model client's cache and ledger. In a
// service, an address outside its PRECIS_PLUGIN_ADDRESSES is refused before any connection (the
// gateway checked the spec already; this holds when their settings differ), and a failure is
// stored in opaque words while the service's log gets the detail.
export async function runPluginStep(
  ctx: RunContext,
  task: { id: string; runId: string },
  payload: SummarizeStepPayload,
  system: SystemSpec,
  cache: boolean,
): Promise<{ text: string; producer: string }> {
  const target = system.plugin!;
  const policy = ctx.pluginAddresses;
  if (policy && !policy.allows(target.address))
    throw new PluginError(policy.refusal(target.address, 'this worker'), false);
  let caller = callers.get(ctx.db);
  if (!caller) {
    caller = new PluginCaller(createTypeOrmLlmStore(ctx.db), ctx.limiters ? { limiters: ctx.limiters } : {});
    callers.set(ctx.db, caller);
  }
  try {
    const answer = await caller.summarize(target, pluginStep(payload, system), {
      runId: task.runId,
      taskId: task.id,
      cache,
      opaqueErrors: policy !== undefined,
    });
    return { text: answer.text, producer: `plugin:${answer.producer}` };
  } catch (err) {
    if (err instanceof PluginError && err.detail !== undefined)
      ctx.logger.warn(err.message, {
        runId: task.runId,
        taskId: task.id,
        plugin: target.address,
        detail: err.detail,
      });
    throw err;
  }
}
