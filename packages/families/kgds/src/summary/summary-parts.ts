import {
  type BenchmarkSpec,
  boundedMemo,
  ConfigurationError,
  type RunContext,
  summarizeTaskId,
  taskResult,
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

// A finished summarize task's result never changes: the verify tasks of one summary (one per
// source paragraph, opinions, feedback) read it once per process.
const stepParts = boundedMemo<KgdsParts>(4096, readStepParts);

async function readStepParts(db: DataSource, taskId: string): Promise<KgdsParts> {
  return checkedParts(taskId, await taskResult<KgdsParts>(db, taskId));
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
  for (const s of summaries)
    if (!isGold(spec, s.system))
      taskIds.set(summarizeTaskId(runId, s.system, s.documentId, KGDS_STEP_KEY), s.id);
  const results = await taskResults<KgdsParts>(ctx.db, [...taskIds.keys()]);
  const parts = new Map<string, KgdsParts>();
  for (const [taskId, summaryId] of taskIds) parts.set(summaryId, checkedParts(taskId, results.get(taskId)));
  return parts;
}
