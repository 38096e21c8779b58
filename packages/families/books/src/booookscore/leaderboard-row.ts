import type { RowWork } from '@precis/engine/family';

// The calls a system's results used, each once, at the model's prices (cache hits included): what
// the system costs, not what this run happened to pay (the run's spend is in `runs show`).
export interface UsageTotals {
  calls: number;
  tokensIn: number;
  // Output tokens, reasoning included.
  tokensOut: number;
  // Prompt tokens from the provider's prompt cache, and reasoning tokens (absent in rows stored
  // before the ledger had them).
  tokensCached?: number;
  tokensReasoning?: number;
  costUsd: number;
}

// One system's line on a run's leaderboard; every number names what produced it.
export interface LeaderboardRow {
  system: string;
  strategy: string;
  // model:<registry name> or engine:<engine@version>
  summarizer: string;
  metric: string;
  // model:<judge> or engine:heuristic-duplication@1 (labelled heuristic in reports)
  judge: string;
  judgeTemplate: string | null;
  // null unless the row's work is complete: never a mean over only what survived. score, std and
  // CI are shares (0-1) here; metric values, reports, REST and the page give them in percent.
  score: number | null;
  bootstrapStd: number | null;
  ci95: [number, number] | null;
  // Summaries scored (every sentence judged).
  summaries: number;
  work: RowWork;
  // 'complete' or what failed, e.g. 'incomplete: 1 of 2 summaries failed' (describeWork).
  status: string;
  sentences: number;
  errorTypes: Record<string, number>;
  lengthTokens: number;
  novelTrigramsPct: number;
  repeatedTrigramsPct: number;
  summarizerUsage: UsageTotals;
  judgeUsage: UsageTotals;
}
