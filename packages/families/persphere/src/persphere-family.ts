import type { BenchmarkFamily } from '@precis/engine/family';
import { OutputParseError } from '@precis/prompts';
import { persphereDatasetKind } from './dataset/persphere-kind.js';
import { checkPersphereSpec } from './persphere-spec.js';
import { PERSPHERE_TEMPLATES } from './prompts/persphere.templates.js';
import { persphereReport } from './report/persphere-report.js';
import { persphereRetrieveKind } from './retrieve/retrieve-task.js';
import { scorePersphere } from './score/score-persphere.js';
import { hierSphereStrategy, vanillaStrategy } from './summary/persphere-strategy.js';
import { PersphereTaskError, persphereSummaryKind } from './summary/summarize-task.js';
import { persphereVerifyKinds } from './verify/judge-tasks.js';
import { persphereMetric } from './verify/persphere-metric.js';

// Multi-faceted perspective retrieval and summarization (METHODS.md §3): retrieve k documents
// for a query (retrieval service), summarize them as two opposing claims with cited perspectives
// (vanilla or HierSphere), and judge the summary, the retrieval and the sub-tasks.
export const persphereFamily: BenchmarkFamily = {
  name: 'persphere',
  // Queries with their gold perspectives, and the documents they retrieve from (`corpus`).
  datasetKinds: [persphereDatasetKind],
  strategies: [vanillaStrategy, hierSphereStrategy],
  metrics: [persphereMetric],
  taskKinds: [persphereRetrieveKind, persphereSummaryKind, ...persphereVerifyKinds],
  templates: PERSPHERE_TEMPLATES,
  // Stored text that does not parse stays unparseable on every retry.
  isPermanent: (err) => err instanceof PersphereTaskError || err instanceof OutputParseError,
  checkSpec: checkPersphereSpec,
  score: scorePersphere,
  report: persphereReport,
};
