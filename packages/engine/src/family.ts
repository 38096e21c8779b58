// `@precis/engine/family`: what a benchmark family may use of the engine, apart from the runtime
// the services start (coordinator, planner, workers, queries, renderers). Families import only
// this entry; test/architecture/family-api.spec.ts fails when one imports '@precis/engine'.

export { type LlmCallRecord, withHeldLedger } from '@precis/llm';
// The interfaces a family implements and registers.
export type {
  BenchmarkFamily,
  DatasetKind,
  HandlerResult,
  Metric,
  ModelUse,
  ReportSection,
  ScoringInput,
  SettledSummary,
  Strategy,
  StrategyPlan,
  StrategyUnit,
  SystemSource,
  TaskKind,
  TaskOutcome,
} from './family/benchmark-family.js';
export { FamilyRegistry } from './family/family-registry.js';
// Task handlers: model calls with parsed answers, templates, errors, finishing a task.
export { askParsed, type JudgeCall } from './handlers/ask-parsed.js';
export { ConfigurationError, resolveTemplate, TemplateMismatchError } from './handlers/templates.js';
// Stable ids of tasks, summaries, judgments and metric values.
export {
  judgmentId,
  metricValueId,
  retrieveTaskId,
  SYSTEM_SCOPE,
  scoreTaskId,
  summarizeTaskId,
  summaryId,
  systemTaskId,
  verifyTaskId,
} from './ids.js';
export { producerOf } from './planner/plan-unit.js';
export type { RunContext } from './planner/run-context.js';
export { type RunDocument, runDocuments } from './planner/run-documents.js';
export { boundedMemo, insertSourceSummaries } from './planner/source-summaries.js';
export type { ChatModel } from './ports.js';
export { documentJudgments } from './queries/run-queries.js';
export { groupRows } from './report/group-rows.js';
export { type Board, boardBlock, type Ranked, type RankedBoard } from './report/leaderboard-board.js';
export type { TraceGroup } from './report/render-trace.js';
// Report blocks a family's section returns; the engine ranks and renders them.
export {
  ciColumn,
  failedColumn,
  fixed,
  numberColumn,
  type ReportBlock,
  type ReportChart,
  type ReportColumn,
  reportTable,
} from './report/report-blocks.js';
export { errorRows, judgedBy, type ReportFigure } from './report/report-figures.js';
export { type RunHeader, runHeader } from './report/report-format.js';
export type { StepOrder } from './report/step-order.js';
// Scoring: metric values, bootstrap order, how complete a row is.
export { bootstrapInOrder } from './scoring/bootstrap-in-order.js';
export { upsertBoardRows, upsertMetricValues } from './scoring/metric-values.js';
export { describeWork, isComplete, type RowWork } from './scoring/row-status.js';
// The spec: its types, the field schemas a family's part reuses, scoped metrics and judges.
export {
  type AnyMetricSpec,
  type BenchmarkSpec,
  int,
  isGeneratedSystem,
  name,
  type SystemSpec,
  samplingParams,
  taskSystem,
} from './spec/benchmark-spec.schema.js';
export {
  checkMetricScopes,
  judgeModelOf,
  judgeModelUses,
  metricCovers,
  metricsNamed,
  type ScopedMetricSpec,
  scopedJudgeFields,
} from './spec/scoped-metrics.js';
// The stores and queries a family's own store builds on.
export { documentTexts, summaryDocumentData } from './stores/documents.store.js';
export { RESULT_CALLS_SQL } from './stores/ledger.store.js';
export { type TaskResultRow, taskResult, taskResults, taskResultsByKind } from './stores/tasks.store.js';
export { inputTaskResult } from './tasks/input-results.js';
export { summaryText } from './tasks/summary-texts.js';
export type { SummaryTaskResult, SummaryTaskStep } from './tasks/task-payloads.js';
export {
  FINISHED_SQL,
  finishTask,
  finishTaskWithJudgments,
  heldLedgerCte,
  idsIn,
  type JudgmentRow,
  type NewTask,
} from './tasks/task-store.js';
export { runTemplate, type TemplateOverrides } from './templates/run-templates.js';
