import {
  type NewTask,
  type Strategy,
  type StrategyPlan,
  type StrategyUnit,
  type SystemSpec,
  summarizeTaskId,
} from '@precis/engine/family';
import { planStrategy } from '../strategies/plan.js';
import type { StrategyParams } from '../strategies/steps.js';
import { booksParams, booksParamsOf } from './books-params.js';
import { cachedChunks, chunkDocument } from './document-chunks.js';
import { hierarchicalTraceGroup } from './hierarchical-trace.js';
import { booksStepOrder } from './step-order.js';
import { strategyParams } from './strategy-params.js';
import { strategyTemplates } from './strategy-templates.js';

type PlannedStep = Extract<ReturnType<typeof planStrategy>, { status: 'steps' }>['steps'][number];

export const SUMMARY_STEP_KIND = 'summary-step';

function stepTask(u: StrategyUnit, step: PlannedStep): NewTask {
  return {
    id: summarizeTaskId(u.runId, u.system.name, u.documentId, step.key),
    runId: u.runId,
    stage: 'summarize',
    kind: SUMMARY_STEP_KIND,
    payload: {
      type: SUMMARY_STEP_KIND,
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

// A book strategy over the document's chunks (METHODS.md: hierarchical merging, incremental
// updating, full context); its steps are planned as earlier ones finish.
function bookStrategy(name: 'hierarchical' | 'incremental' | 'full-context'): Strategy {
  return {
    name,
    // Long texts: books and generic documents (KGDS and SummEval-OP have strategies of their own).
    datasetKinds: ['text', 'jsonl'],
    params: booksParams,
    plugins: true,
    prepare: (system: SystemSpec, modelInfo) => strategyParams(system, modelInfo),
    needsText: (system, _prepared, documentId) => !cachedChunks(documentId, booksParamsOf(system)),
    async plan(u: StrategyUnit): Promise<StrategyPlan> {
      const plan = planStrategy(name, {
        chunks:
          cachedChunks(u.documentId, booksParamsOf(u.system)) ??
          chunkDocument(u.documentId, await u.text(), booksParamsOf(u.system)),
        results: u.results as Map<string, string>,
        params: u.prepared as StrategyParams,
        templates: strategyTemplates(u.spec.templateOverrides),
      });
      if (plan.status === 'steps')
        return { kind: 'steps', tasks: plan.steps.map((step) => stepTask(u, step)) };
      return { kind: 'summary', text: plan.summary, finalStep: plan.finalKey };
    },
    stepOrder: booksStepOrder,
    ...(name === 'hierarchical' ? { traceGroup: hierarchicalTraceGroup } : {}),
  };
}

export const BOOK_STRATEGIES: readonly Strategy[] = [
  bookStrategy('hierarchical'),
  bookStrategy('incremental'),
  bookStrategy('full-context'),
];
