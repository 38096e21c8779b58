import { planStrategy, type StrategyParams } from '@precis/strategies';
import { splitSentences } from '@precis/text';
import { summarizeTaskId, summaryId, verifyTaskId } from '../ids.js';
import type { DimensionPlanner } from '../opinion/dimension-planner.js';
import { OPINION_STEP_KEY, opinionSummaryTask } from '../opinion/opinion-summary.js';
import { type BenchmarkSpec, isBooookScoreMetric, type SystemSpec } from '../spec/benchmark-spec.schema.js';
import type { NewTask } from '../tasks/task-store.js';
import { strategyTemplates } from '../templates/run-templates.js';
import { producerOf } from './strategy-params.js';

// What a (system, document) unit's summarize tasks hold so far.
export interface UnitState {
  // Step key -> output text of each finished step.
  results: Map<string, string>;
  // The first failed (or dead) step, if any: the unit then has no summary.
  failed: { taskId: string; error: string | null } | null;
}

export interface UnitSummary {
  id: string;
  runId: string;
  system: string;
  documentId: string;
  text: string;
  finalStep: string;
  producer: string;
}

export type UnitPlan =
  | { kind: 'steps'; tasks: NewTask[] }
  | { kind: 'summary'; summary: UnitSummary; tasks: NewTask[] }
  | { kind: 'failed'; taskId: string; error: string | null };

export interface UnitInput {
  runId: string;
  spec: BenchmarkSpec;
  system: SystemSpec;
  params: StrategyParams;
  documentId: string;
  chunks: () => Promise<string[]>;
  state: UnitState;
  dimensions: DimensionPlanner;
}

// The next tasks of one unit: its ready summary steps, or, once its final step is done, its
// summary and the verify tasks that judge it. Pure but for reading the document's chunks; throws
// StrategyError when the strategy cannot go on (the run then fails).
export async function planUnit(u: UnitInput): Promise<UnitPlan> {
  if (u.state.failed) return { kind: 'failed', ...u.state.failed };
  let summary: string;
  let finalKey: string;
  if (u.system.strategy === 'opinion') {
    const text = u.state.results.get(OPINION_STEP_KEY);
    if (text === undefined)
      return {
        kind: 'steps',
        tasks: [opinionSummaryTask(u.runId, u.system, u.documentId, u.spec.templateOverrides)],
      };
    summary = text;
    finalKey = OPINION_STEP_KEY;
  } else {
    const plan = planStrategy(u.system.strategy, {
      chunks: await u.chunks(),
      results: u.state.results,
      params: u.params,
      templates: strategyTemplates(u.spec.templateOverrides),
    });
    if (plan.status === 'steps') return { kind: 'steps', tasks: plan.steps.map((step) => stepTask(u, step)) };
    summary = plan.summary;
    finalKey = plan.finalKey;
  }
  const sid = summaryId(u.runId, u.system.name, u.documentId);
  return {
    kind: 'summary',
    summary: {
      id: sid,
      runId: u.runId,
      system: u.system.name,
      documentId: u.documentId,
      text: summary,
      finalStep: finalKey,
      producer: producerOf(u.system),
    },
    tasks: verifyTasks(u.runId, u.spec, u.system.name, u.documentId, sid, summary, u.dimensions),
  };
}

type PlannedStep = Extract<ReturnType<typeof planStrategy>, { status: 'steps' }>['steps'][number];

function stepTask(u: UnitInput, step: PlannedStep): NewTask {
  return {
    id: summarizeTaskId(u.runId, u.system.name, u.documentId, step.key),
    runId: u.runId,
    stage: 'summarize',
    kind: 'summary-step',
    payload: {
      type: 'summary-step',
      system: u.system.name,
      documentId: u.documentId,
      step: {
        key: step.key,
        role: step.role,
        templateId: step.template.id,
        templateVersion: step.template.version,
        vars: step.vars,
        budgetWords: step.budgetWords,
        input: step.input,
        level: step.level,
        index: step.index,
        promptTokens: step.promptTokens,
      },
    },
  };
}

// The verify tasks of a settled summary: dimension judges and BooookScore sentence batches.
export function verifyTasks(
  runId: string,
  spec: BenchmarkSpec,
  system: string,
  documentId: string,
  sid: string,
  summary: string,
  dimensions: DimensionPlanner,
): NewTask[] {
  const tasks = dimensions.tasksFor(system, documentId, sid);
  const sentences = splitSentences(summary);
  spec.metrics.forEach((metric, metricIndex) => {
    if (!isBooookScoreMetric(metric)) return;
    const size = metric.mode === 'sentence' ? 1 : metric.batchSize;
    for (let start = 0, batch = 0; start < sentences.length; start += size, batch++) {
      tasks.push({
        id: verifyTaskId(runId, system, documentId, `${metric.name}.${metricIndex}`, batch),
        runId,
        stage: 'verify',
        kind: 'booookscore-batch',
        payload: {
          type: 'booookscore-batch',
          system,
          documentId,
          summaryId: sid,
          metricIndex,
          sentences: sentences.slice(start, start + size).map((text, i) => ({ n: start + i + 1, text })),
        },
      });
    }
  });
  return tasks;
}
