import type { RunStage } from '@precis/engine';

// The run stage queue(s) this service owns: strategy steps (chunk summaries, merges, updates,
// compressions) of every summarization system.
export const SUMMARIZATION_STAGES: RunStage[] = ['summarize'];
