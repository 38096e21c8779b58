import type { DatasetKindParser, RunEntity, SummaryEntity } from '@precis/db';
import type { ModelUse } from '@precis/llm';
import type { PromptTemplate } from '@precis/prompts';
import type { DataSource } from 'typeorm';
import type { z } from 'zod';
import type { RunContext } from '../planner/run-context.js';
import type { RunDocument } from '../planner/run-documents.js';
import type { RunStage } from '../ports.js';
import type { Board, RankedBoard } from '../report/leaderboard-board.js';
import type { TraceGroup } from '../report/render-trace.js';
import type { ReportBlock } from '../report/report-blocks.js';
import type { ReportFigure } from '../report/report-figures.js';
import type { BenchmarkSpec, SystemSpec } from '../spec/benchmark-spec.schema.js';
import type { SummaryTaskStep } from '../tasks/task-payloads.js';
import type { NewTask } from '../tasks/task-store.js';

export type { ModelUse };

// waiting: parked until a provider batch answers its model calls (limits.batch).
export type TaskOutcome = 'done' | 'failed' | 'skipped' | 'waiting';
// What a handler's run of a task ends in.
export type FinishedOutcome = Exclude<TaskOutcome, 'waiting'>;

export interface TaskRef {
  id: string;
  runId: string;
}

// What a handler hands back: a result for the engine to store as the task's (status done), or
// the outcome of a task it persisted itself (with side rows, in one statement).
export type HandlerResult = { result: Record<string, unknown> } | { persisted: FinishedOutcome };

// One kind of task: which stage's queue (and so which service) runs it, and its handler. The
// handler must be safe to run twice; a transient error is thrown for the bus to redeliver, a
// permanent one (ConfigurationError or the family's isPermanent) fails the task at once.
export interface TaskKind {
  readonly kind: string;
  readonly stage: RunStage;
  handle(
    ctx: RunContext,
    task: TaskRef,
    payload: Record<string, unknown>,
    spec: BenchmarkSpec,
  ): Promise<HandlerResult>;
}

// What a (system, document) unit's summarize tasks hold so far: step key -> output text.
export interface StrategyUnit {
  runId: string;
  spec: BenchmarkSpec;
  system: SystemSpec;
  // What the strategy's prepare() returned for this system.
  prepared: unknown;
  documentId: string;
  // The document's text (read in batches by the planner when needsText said so).
  text: () => Promise<string>;
  results: ReadonlyMap<string, string>;
  // Step key -> output text of the system's finished system-wide steps (see `await`).
  shared: ReadonlyMap<string, string>;
}

// A strategy's next step for a unit: tasks to run (summarize stage), the finished summary, or a
// wait for a system-wide step: `task` (id from systemTaskId, payload documentId SYSTEM_SCOPE) is
// planned once every document of the system finished its step `after` or failed; its result then
// reaches every unit in `shared` (e.g. one model trained on all documents' graphs).
export type StrategyPlan =
  | { kind: 'steps'; tasks: NewTask[] }
  | { kind: 'summary'; text: string; finalStep: string }
  | { kind: 'await'; after: string; task: NewTask };

// A summarization strategy (`systems[].strategy`). Its tasks are summarize-stage tasks whose
// payload names `system` and `documentId`, with ids from summarizeTaskId (the engine groups a
// unit's tasks by them).
export interface Strategy {
  readonly name: string;
  // The dataset kinds it can summarize (default: any); another kind is a spec error. Each must
  // be registered (DatasetKind).
  readonly datasetKinds?: readonly string[];
  // The fields of `systems[].params` it reads beyond the engine's (samplingParams); every
  // system's params hold every loaded strategy's fields, so a default here is stored for every
  // system. A field two strategies declare must be the same.
  readonly params?: z.ZodRawShape;
  // Whether a summarizer plugin (`systems[].plugin`) can serve its steps.
  readonly plugins?: boolean;
  // Checks and derives per-system settings once per run (e.g. the model's context window);
  // throws to fail the run with that message.
  prepare?(system: SystemSpec, modelInfo: RunContext['modelInfo']): unknown;
  // Whether planning this unit needs the document text (the planner then reads texts in batches).
  needsText?(system: SystemSpec, prepared: unknown, documentId: string): boolean;
  plan(unit: StrategyUnit): Promise<StrategyPlan>;
  // Where `runs show --trace` prints one of its stored steps (e.g. under its level); without it
  // a unit's steps print as one sequence. Reads only what the step payload holds, so a run
  // stored earlier prints the same.
  traceGroup?(step: SummaryTaskStep): TraceGroup;
  // The rank of one of its step keys, by which traces and transcripts list a unit's steps
  // (e.g. [level, index]); without it they keep the planned order. From the key alone, so a run
  // stored earlier lists the same.
  stepOrder?(key: string): readonly number[];
}

export interface SettledSummary {
  id: string;
  system: string;
  documentId: string;
  text: string;
}

// Run-level state of a metric (e.g. G-Eval's evaluation steps), read when planning opens and
// again after one of the metric's own run-level tasks finished.
export interface MetricPlanning {
  // The tasks that judge settled summaries (natural ids: planning twice finds them).
  tasksFor(summaries: readonly SettledSummary[]): NewTask[];
  // Whether a finished task is one of this metric's run-level tasks: the engine then reloads
  // the metric and plans every summary of the run again.
  ownsRunTask?(taskId: string): boolean;
}

// A metric (`metrics[].name`): its spec fragment and how it plans judge tasks.
export interface Metric {
  readonly name: string;
  // A z.object with `name: z.literal(<name>)`, joined into the spec's metrics union.
  // A judge model, when the metric uses one, is named at `judge.model` (checked at run creation).
  readonly schema: z.ZodType;
  open(ctx: RunContext, runId: string, spec: BenchmarkSpec): Promise<MetricPlanning>;
  // How metrics[index] calls registry models (temperature, logprobs), checked against each
  // model's capabilities before any request; a metric that calls none leaves it out.
  modelUses?(spec: BenchmarkSpec, index: number): ModelUse[];
}

// A system source other than a strategy (`systems[].source`), e.g. summaries stored in a dataset.
export interface SystemSource {
  readonly source: string;
  // A z.object with `source: z.literal(<source>)`, joined into the spec's systems union.
  readonly schema: z.ZodType;
  // Writes the run's summaries from the source once planning starts; tasksFor plans their judges.
  planStart(
    ctx: RunContext,
    run: { runId: string; spec: BenchmarkSpec; docs: readonly RunDocument[] },
    tasksFor: (summaries: readonly SettledSummary[]) => NewTask[],
  ): Promise<{ expected: number; tasks: NewTask[]; error: string | null }>;
}

export interface ScoringInput {
  runId: string;
  spec: BenchmarkSpec;
  // The run's summaries in run order (spec datasets, then ordinal), then by id.
  summaries: (SummaryEntity & { order: number })[];
  runDocuments: number;
}

// A report part: loaded from what the score task stored, rendered in every format (a part names
// its run with runHeader()). Parts with no results are left out.
export interface ReportSection<T = unknown> {
  load(db: DataSource, run: RunEntity): Promise<T>;
  hasResults(part: T): boolean;
  // Its leaderboards. The engine ranks each by evidence on its ranking metric's per-document
  // values and gives them to the JSON report (`sections[]`), the page and `blocks`.
  boards?(part: T): Board[];
  // Tables, notes and lists, with its boards ranked (in the order boards() gave them; boardBlock
  // renders one); the engine renders them in every format but JSON.
  blocks(part: T, ranked: readonly RankedBoard[]): ReportBlock[];
  // Its leaderboards as charts (web page and HTML report).
  figures?(part: T): ReportFigure[];
  // What `runs show --trace <document>` adds for one document (e.g. each verdict of its summaries).
  trace?(db: DataSource, run: RunEntity, documentId: string): Promise<ReportBlock[]>;
}

// A dataset kind (`datasets[].kind`): what a spec may name and import with `path`, with its
// parser and the order `datasets show` lists its counts in.
export type DatasetKind = DatasetKindParser;

// A benchmark family: everything a benchmark brings to the engine. See docs/adding-a-benchmark.md.
export interface BenchmarkFamily {
  readonly name: string;
  // The dataset kinds it brings (a generic kind is given to the registry instead).
  readonly datasetKinds?: readonly DatasetKind[];
  readonly strategies?: readonly Strategy[];
  readonly sources?: readonly SystemSource[];
  readonly metrics?: readonly Metric[];
  readonly taskKinds: readonly TaskKind[];
  // Prompts a run may override by id (`templates:` in a spec).
  readonly templates?: readonly PromptTemplate[];
  // Errors of this family's code that no redelivery can fix.
  isPermanent?(err: unknown): boolean;
  // Cross-field checks of a parsed spec: problems as [path, message].
  checkSpec?(spec: BenchmarkSpec): { path: (string | number)[]; message: string }[];
  // The per-sample scorer: writes metric values, returns what joins the score task's result.
  score?(ctx: RunContext, input: ScoringInput): Promise<Record<string, unknown>>;
  readonly report?: ReportSection;
}
