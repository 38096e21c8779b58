// The JSON the page reads from the gateway's REST API (/api/v1) or, in a report file, from the
// embedded <script id="precis-data">: an HTTP contract, mirrored here because the page is built
// for the browser and imports nothing from the server packages.

export interface Run {
  id: string;
  name: string;
  // pending, running, completed, completed-with-failures, failed, stopped, interrupted, cancelled
  status: string;
  error: string | null;
  createdAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  // done, failed, cancelled, open and per stage "<stage>.<state>" and "<stage>.total"
  taskCounts: Record<string, number>;
  // Spent by settled calls (never goes down); reserved by calls not settled yet.
  costUsd: number;
  reservedUsd: number;
  // The spec's dataset names.
  datasets: string[];
  // The first leaderboard's ranking metric and best system; null before the run is scored.
  headline: RunHeadline | null;
  // GET of one run only; null in lists.
  usage: RunUsage | null;
  // What blocks the run now (GET of one run only); null when nothing does.
  blockedBy: string | null;
}

export interface RunHeadline {
  section: string;
  title: string;
  // The ranking column, e.g. "BooookScore".
  metric: string;
  system: string;
  score: number;
  higherIsBetter: boolean;
  // Its rank as shown ("=1" when others share it) and how many other systems share it.
  rankLabel: string;
  tiedWith: number;
}

// A run's model calls from the call ledger, repeats after faults included.
export interface RunUsage {
  calls: number;
  cacheHits: number;
  repeated: number;
  tokensIn: number;
  // Output tokens, reasoning included.
  tokensOut: number;
  // Prompt tokens served from the provider's prompt cache (part of tokensIn).
  tokensCached: number;
  // Reasoning tokens (part of tokensOut).
  tokensReasoning: number;
  // What went through provider batches (limits.batch): calls, their cost, what they saved over
  // online prices, and times a call went into another batch.
  batch?: { calls: number; costUsd: number; savedUsd: number; resent: number };
}

export interface RunList {
  runs: Run[];
  nextPageToken: string;
}

export type CsvValue = number | string | null;

export interface ReportTable {
  headers: string[];
  // What is shown, one string per header.
  rows: string[][];
  // The same rows with numbers unformatted (a CI is two cells: "<h> low", "<h> high").
  csvHeaders: string[];
  csvRows: CsvValue[][];
  // Columns a narrow terminal keeps besides the first two (indices into headers).
  pinned?: number[];
}

export interface ReportBlock {
  // A leaderboard's key is its section's (RunView.sections).
  key: string;
  heading?: string;
  // An internal id shown small beside the heading (e.g. booookscore.0).
  label?: string;
  table?: ReportTable;
  chart?: { title: string; bars: { label: string; share: number | null; display: string }[] };
  notes?: string[];
  list?: string[];
}

// One leaderboard drawn as charts: CI whiskers, quality vs cost, error types.
export interface ReportFigure {
  key: string;
  // Names the metric and what produced it (judge model or offline engine, template version).
  title: string;
  // Axis label of the score, e.g. "BooookScore (%)".
  metric: string;
  // Higher is better unless false.
  higherIsBetter: boolean;
  points: { system: string; score: number | null; ci95: [number, number] | null; costUsd: number | null }[];
  // Counts per error type and system, drawn as stacked bars; absent when the metric has none.
  errors?: { types: string[]; rows: { system: string; counts: number[] }[] };
}

export interface RunView {
  title: string;
  run: {
    id: string;
    name: string;
    status: string;
    createdAt: string;
    finishedAt: string | null;
    error: string | null;
  };
  // What the run's model calls took (a report file of a run carries it too).
  usage?: RunUsage & { costUsd: number; reservedUsd?: number };
  blocks: ReportBlock[];
  // The run's leaderboards as GET /api/v1/runs/{id}/report gives them (absent in older reports).
  sections?: ReportSection[];
  figures: ReportFigure[];
  // The provider batches of the run's calls, when it used any (batch mode).
  batches?: RunBatches;
}

export interface RunBatches {
  waitingTasks: number;
  queuedCalls: number;
  batches: {
    id: string;
    // null while not sent yet.
    providerBatchId: string | null;
    // preparing, validating, in_progress, finalizing, completed, failed, expired, cancelling, cancelled
    status: string;
    requests: number;
    completed: number;
    failed: number;
    ageSeconds: number;
    ended: boolean;
  }[];
}

// One leaderboard, the same shape for every family (GET /api/v1/runs/{id}/report: sections[]).
export interface ReportSection {
  key: string;
  family: string;
  // The spec's metric name; label is the internal id (e.g. booookscore.0).
  metric: string;
  label: string;
  // For people, e.g. "BooookScore (coherence)".
  title: string;
  // The per-document metric the ranks are tested on, and the column showing its mean.
  rankingMetric: string;
  rankingColumn: string;
  higherIsBetter: boolean;
  alpha: number;
  resamples: number;
  documents: number;
  notes: string[];
  details: Record<string, unknown>;
  rows: SectionRow[];
}

export interface SectionRow {
  system: string;
  // 1 + the systems significantly better; null when its work failed.
  rank: number | null;
  // "1", "=2" (a rank several systems share), "–".
  rankLabel: string;
  score: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  work: { summaries: { expected: number; failed: number }; judgments: { expected: number; failed: number } };
  status: string;
  usage: {
    calls: number;
    tokensIn: number;
    tokensOut: number;
    tokensCached: number;
    tokensReasoning: number;
    costUsd: number;
  };
  // Then the family's own fields.
  [field: string]: unknown;
}

// GET /api/v1/runs/{id}/samples?system=&metric=&min=&max=&failed=&sort=&order=&offset=&limit= :
// per-summary metric values, filtered, sorted and paged by the server.
export interface Sample {
  document: string;
  documentId: string;
  system: string;
  metric: string;
  // null: a failed sample (its judge gave no usable score)
  value: number | null;
  producedBy: string;
}
export interface SamplePage {
  // The values matching the filters.
  total: number;
  offset: number;
  samples: Sample[];
  // Every system and metric with a per-summary value in the run.
  systems: string[];
  metrics: string[];
}
export type SampleSort = 'system' | 'document' | 'metric' | 'value' | 'producedBy';

// GET /api/v1/runs/{id}/side-by-side/{document}
export interface SideBySide {
  document: { id: string; externalId: string };
  metrics: string[];
  systems: {
    system: string;
    strategy: string | null;
    summary: string | null;
    producer: string | null;
    finalStep: string | null;
    values: { metric: string; value: number | null; producedBy: string; failure: string | null }[];
  }[];
}

// GET /api/v1/runs/{id}/traces/{document}
export interface Trace {
  document: { id: string; externalId: string };
  systems: {
    system: string;
    strategy: string;
    steps: {
      taskId: string;
      status: string;
      payload: Record<string, unknown>;
      result: Record<string, unknown> | null;
      error: string | null;
    }[];
  }[];
  // The families' verdict blocks (BooookScore's annotated sentences, KGDS verdicts, judge samples).
  verdicts: ReportBlock[];
}

// SSE GET /api/v1/runs/{id}/events, event name "progress".
export interface RunProgress {
  id: string;
  status: string;
  error: string | null;
  summaries: { expected: number; done: number; failed: number };
  tasks: Record<string, { total: number; done: number; failed: number; cancelled: number }>;
  // A stage queue that keeps failing while the run has work on it; null when none.
  blockedBy: string | null;
  // Tasks waiting for provider batches (limits.batch); absent from older gateways.
  waitingTasks?: number;
}

// GET /api/v1/leaderboard?runs=a,b&metric=
export interface CrossRunBoard {
  metric: string;
  documents: number;
  alpha: number;
  resamples: number;
  entries: {
    run: { id: string; name: string };
    system: string;
    producedBy: string;
    mean: number;
    rank: number;
    // "=2" for a rank several systems share.
    rankLabel: string;
  }[];
  comparisons: {
    better: string;
    worse: string;
    meanDiff: number;
    p: number | null;
    pHolm: number | null;
    significant: boolean;
  }[];
  // Why every system shares rank 1, or where the tests are not transitive.
  notes: string[];
}
