import { type BenchmarkSpec, ConfigurationError, type RunContext, summarizeTaskId } from '@precis/engine';
import type { KgdsPattern, KgdsSummaryAnswer } from '@precis/prompts';
import type { GoldSystemSpec } from '../kgds-spec.js';
import { loadKgdsSample } from '../sample.js';
import { goldParts } from './gold-source.js';

export type KgdsParts = KgdsSummaryAnswer & { pattern: KgdsPattern };

export interface KgdsSummaryRef {
  id: string;
  system: string;
  documentId: string;
  finalStep: string;
}

// The parts of a KGDS summary the verifiers read: a gold system's from the sample, a generated
// system's from its summarize task's result.
export async function summaryParts(
  ctx: RunContext,
  runId: string,
  spec: BenchmarkSpec,
  s: KgdsSummaryRef,
): Promise<KgdsParts> {
  const system = spec.systems.find((x) => x.name === s.system);
  if (system?.source === 'gold')
    return goldParts(
      await loadKgdsSample(ctx.db, s.documentId),
      (system as unknown as GoldSystemSpec).pattern,
    );
  const rows: { result: KgdsParts | null }[] = await ctx.db.query('SELECT result FROM tasks WHERE id = $1', [
    summarizeTaskId(runId, s.system, s.documentId, s.finalStep),
  ]);
  const parts = rows[0]?.result;
  if (!parts?.pattern || typeof parts.aos !== 'string')
    throw new ConfigurationError(
      `summary ${s.id} is not a KGDS summary (its step ${s.finalStep} holds no EBS/ABS and AOS)`,
    );
  return parts;
}
