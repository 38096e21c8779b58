// Role interfaces every summarization implementation (LLM or offline) provides. Results always
// name the implementation that produced them, e.g. "textrank@1" or "model:gpt-4o".

export interface RoleResult {
  text: string;
  engine: string;
}

export interface ChunkSummarizer {
  summarizeChunk(input: { text: string; budgetWords: number }): Promise<RoleResult>;
}

export interface SummaryMerger {
  // priorContext: the previous merged summary at the same level, for continuity only.
  merge(input: {
    summaries: readonly string[];
    priorContext?: string;
    budgetWords: number;
  }): Promise<RoleResult>;
}

export interface SummaryCompressor {
  compress(input: { summary: string; budgetWords: number }): Promise<RoleResult>;
}

export interface SummaryUpdater {
  update(input: { summary: string; chunk: string; budgetWords: number }): Promise<RoleResult>;
}

export interface ArtifactRemover {
  clean(input: { summary: string }): Promise<RoleResult>;
}

// One implementation of all summarization roles.
export interface SummaryEngine
  extends ChunkSummarizer,
    SummaryMerger,
    SummaryCompressor,
    SummaryUpdater,
    ArtifactRemover {
  readonly name: string;
}

// A BooookScore sentence verdict (METHODS.md §1.6); types use the canonical confusion-type names.
export interface CoherenceVerdict {
  confusing: boolean;
  types: string[];
  questions: string[];
}

export interface CoherenceAnnotator {
  annotate(input: {
    summary: string;
    sentences?: readonly string[];
  }): Promise<{ verdicts: CoherenceVerdict[]; engine: string }>;
}

export function assertBudget(budgetWords: number, where: string): void {
  if (!Number.isInteger(budgetWords) || budgetWords < 1) {
    throw new Error(`${where}: budgetWords must be a positive integer, got ${budgetWords}`);
  }
}
