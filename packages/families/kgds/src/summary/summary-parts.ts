import {
  type BenchmarkSpec,
  ConfigurationError,
  inputTaskResult,
  type RunContext,
  summarizeTaskId,
  taskResults,
} from '@precis/engine/family';
import type { DataSource } from 'typeorm';
import type { GoldSystemSpec } from '../kgds-spec.js';
import type { KgdsPattern, KgdsSummaryAnswer } from '../prompts/kgds.parsers.js';
import { type KgdsSample, loadKgdsSample } from '../sample.js';
import { goldParts } from './gold-source.js';
import { KGDS_STEP_KEY } from './kgds-strategy.js';

export type KgdsParts = KgdsSummaryAnswer & { pattern: KgdsPattern };

export interface KgdsSummaryRef {
  id: string;
  system: string;
  documentId: string;
}

// The summarize task whose result holds a generated summary's parts; none for a gold system's.
export function partsTaskId(runId: string, spec: BenchmarkSpec, s: KgdsSummaryRef): string | undefined {
  return isGold(spec, s.system) ? undefined : summarizeTaskId(runId, s.system, s.documentId, KGDS_STEP_KEY);
}

// A verify task names that task as its input (kgds-metric.ts): its claim reads the parts along,
// and the verify tasks of one summary read them once per process.
async function stepParts(db: DataSource, taskId: string): Promise<KgdsParts> {
  return checkedParts(taskId, await inputTaskResult<KgdsParts>(db, taskId));
}

function checkedParts(taskId: string, parts: KgdsParts | null | undefined): KgdsParts {
  if (!parts?.pattern || typeof parts.aos !== 'string')
    throw new ConfigurationError(`task ${taskId} holds no KGDS summary parts (EBS/ABS and AOS)`);
  return parts;
}

const isGold = (spec: BenchmarkSpec, system: string) =>
  spec.systems.find((x) => x.name === system)?.source === 'gold';

// The parts of a KGDS summary the verifiers read: a gold system's from the sample, a generated
// system's from its (one) summarize task's result.
export async function summaryParts(
  ctx: RunContext,
  runId: string,
  spec: BenchmarkSpec,
  s: KgdsSummaryRef,
  // The summary's sample, when the caller has read it already.
  sample?: KgdsSample,
): Promise<KgdsParts> {
  const system = spec.systems.find((x) => x.name === s.system);
  if (system?.source === 'gold')
    return goldParts(
      sample ?? (await loadKgdsSample(ctx.db, s.documentId)),
      (system as unknown as GoldSystemSpec).pattern,
    );
  return stepParts(ctx.db, summarizeTaskId(runId, s.system, s.documentId, KGDS_STEP_KEY));
}

// The parts of many generated summaries by summary id, in one read (the score stage reads every
// summary's; one read each cost a statement per summary). Gold summaries are not in the map.
export async function generatedSummaryParts(
  ctx: RunContext,
  runId: string,
  spec: BenchmarkSpec,
  summaries: readonly KgdsSummaryRef[],
): Promise<Map<string, KgdsParts>> {
  const taskIds = new Map<string, string>();
  for (const s of summaries) {
    const taskId = partsTaskId(runId, spec, s);
    if (taskId !== undefined) taskIds.set(taskId, s.id);
  }
  const results = await taskResults<KgdsParts>(ctx.db, [...taskIds.keys()]);
  const parts = new Map<string, KgdsParts>();
  for (const [taskId, summaryId] of taskIds) parts.set(summaryId, checkedParts(taskId, results.get(taskId)));
  return parts;
}
