import type { SettledSummary, Strategy } from '../family/benchmark-family.js';
import { summaryId } from '../ids.js';
import type { BenchmarkSpec, SystemSpec } from '../spec/benchmark-spec.schema.js';
import type { SummaryRowInput } from '../stores/summaries.store.js';
import type { NewTask } from '../tasks/task-store.js';

// What a (system, document) unit's summarize tasks hold so far.
export interface UnitState {
  // Step key -> output text of each finished step.
  results: Map<string, string>;
  // The first failed (or dead) step, if any: the unit then has no summary.
  failed: { taskId: string; error: string | null } | null;
  // Results of its system's system-wide steps.
  shared?: Map<string, string>;
}

// A unit's summary is written as the summaries store's row.
export type UnitSummary = SummaryRowInput;

export type UnitPlan =
  | { kind: 'steps'; tasks: NewTask[] }
  | { kind: 'await'; after: string; task: NewTask }
  | { kind: 'summary'; summary: UnitSummary }
  | { kind: 'failed'; taskId: string; error: string | null };

export interface UnitInput {
  runId: string;
  spec: BenchmarkSpec;
  system: SystemSpec;
  strategy: Strategy;
  prepared: unknown;
  documentId: string;
  text: () => Promise<string>;
  state: UnitState;
}

export function producerOf(system: SystemSpec): string {
  if (system.plugin) return `plugin:${system.plugin.address}`;
  return system.model !== undefined ? `model:${system.model}` : `engine:${system.engine}`;
}

// The next tasks of one unit: its strategy's ready steps, or, once they are all done, its
// summary (the caller plans the judges of settled summaries). The strategy throws when it
// cannot go on (the run then fails).
export async function planUnit(u: UnitInput): Promise<UnitPlan> {
  if (u.state.failed) return { kind: 'failed', ...u.state.failed };
  const plan = await u.strategy.plan({
    runId: u.runId,
    spec: u.spec,
    system: u.system,
    prepared: u.prepared,
    documentId: u.documentId,
    text: u.text,
    results: u.state.results,
    shared: u.state.shared ?? new Map(),
  });
  if (plan.kind === 'steps' || plan.kind === 'await') return plan;
  return {
    kind: 'summary',
    summary: {
      id: summaryId(u.runId, u.system.name, u.documentId),
      runId: u.runId,
      system: u.system.name,
      documentId: u.documentId,
      text: plan.text,
      finalStep: plan.finalStep,
      producer: producerOf(u.system),
    },
  };
}

export const settled = (s: UnitSummary): SettledSummary => ({
  id: s.id,
  system: s.system,
  documentId: s.documentId,
  text: s.text,
});
