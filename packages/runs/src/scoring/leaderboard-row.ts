export interface UsageTotals {
  calls: number;
  cacheHits: number;
  tokensIn: number;
  tokensOut: number;
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
  score: number | null;
  bootstrapStd: number | null;
  ci95: [number, number] | null;
  summaries: number;
  // Summaries left out of the score because a judgment failed (explicit failures, not passes).
  incomplete: number;
  sentences: number;
  errorTypes: Record<string, number>;
  lengthTokens: number;
  novelTrigramsPct: number;
  repeatedTrigramsPct: number;
  summarizerUsage: UsageTotals;
  judgeUsage: UsageTotals;
}
