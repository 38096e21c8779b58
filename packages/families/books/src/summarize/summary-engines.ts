import { createLeadEngine, createTextRankEngine, type SummaryEngine } from '@precis/engines';
import type { SummarizeStepPayload } from '../payloads.js';

const engines = new Map<string, SummaryEngine>();

function engine(name: 'textrank' | 'lead'): SummaryEngine {
  let e = engines.get(name);
  if (!e) {
    e = name === 'textrank' ? createTextRankEngine() : createLeadEngine();
    engines.set(name, e);
  }
  return e;
}

// Runs one strategy step with an offline engine: every role maps to the engine's extractive
// implementation of that role.
export async function runEngineStep(
  name: 'textrank' | 'lead',
  step: SummarizeStepPayload['step'],
): Promise<{ text: string; engine: string }> {
  const e = engine(name);
  const budgetWords = step.budgetWords;
  switch (step.role) {
    case 'chunk':
    case 'initial':
    case 'full':
      return e.summarizeChunk({ text: step.input.text ?? '', budgetWords });
    case 'merge':
      return e.merge({
        summaries: step.input.summaries ?? [],
        priorContext: step.input.context,
        budgetWords,
      });
    case 'update':
      return e.update({ summary: step.input.summary ?? '', chunk: step.input.text ?? '', budgetWords });
    case 'compress':
      return e.compress({ summary: step.input.summary ?? '', budgetWords });
    case 'clean':
      return e.clean({ summary: step.input.summary ?? '' });
  }
}
