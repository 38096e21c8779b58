import type { BenchmarkFamily } from '@precis/engine/family';
import { OutputParseError } from '@precis/prompts';
import { qmsumDatasetKind } from './dataset/qmsum-kind.js';
import { checkGorSpec } from './gor-spec.js';
import { gorStrategies } from './gor-strategy.js';
import { pairwiseMetric, rougeMetric } from './metrics/gor-metrics.js';
import { pairwiseKind } from './metrics/pairwise-task.js';
import { GOR_TEMPLATES } from './prompts/gor.templates.js';
import { gorReport } from './report/gor-report.js';
import { scoreGor } from './score/score-gor.js';
import { GorTaskError } from './steps/step-context.js';
import { gorStepKinds } from './steps/step-kinds.js';

// Graph of Records on QMSum (METHODS.md §5): simulated queries and their RAG responses form a
// graph over a meeting's chunks; a GAT trained on it ranks records for the global query, whose top
// K the summarizer reads. Retrieval baselines and ablations are strategies; ROUGE and a pairwise
// judge score the summaries.
export const gorFamily: BenchmarkFamily = {
  name: 'gor',
  // QMSum meetings (JSONL), with their queries and reference summaries.
  datasetKinds: [qmsumDatasetKind],
  strategies: gorStrategies,
  metrics: [rougeMetric, pairwiseMetric],
  taskKinds: [...gorStepKinds, pairwiseKind],
  templates: GOR_TEMPLATES,
  isPermanent: (err) => err instanceof GorTaskError || err instanceof OutputParseError,
  checkSpec: checkGorSpec,
  score: scoreGor,
  report: gorReport,
};
