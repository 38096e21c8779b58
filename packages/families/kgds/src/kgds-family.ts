import type { BenchmarkFamily } from '@precis/engine/family';
import { kgdsDatasetKind } from './dataset/kgds-kind.js';
import { checkKgdsSpec } from './kgds-spec.js';
import { KGDS_TEMPLATES } from './prompts/kgds.templates.js';
import { kgdsReport } from './report/kgds-report.js';
import { scoreKgds } from './score/score-kgds.js';
import { goldSource } from './summary/gold-source.js';
import { absAosStrategy, ebsAosStrategy, kgdsSummaryKind } from './summary/kgds-strategy.js';
import { KgdsOutputError } from './summary/summarize-kgds.js';
import { kgdsMetric } from './verify/kgds-metric.js';
import { kgdsFactsKind, kgdsFeedbackKind, kgdsOpinionsKind } from './verify/verify-tasks.js';

// Knowledge-grounded discussion summarization (METHODS.md §2): a discussion about a news article
// summarized as background (extractive paragraph indices or abstractive text) plus opinions,
// verified fact by fact and opinion by opinion.
export const kgdsFamily: BenchmarkFamily = {
  name: 'kgds',
  // KGDS.json: news articles with their discussions and annotations.
  datasetKinds: [kgdsDatasetKind],
  strategies: [ebsAosStrategy, absAosStrategy],
  sources: [goldSource],
  metrics: [kgdsMetric],
  taskKinds: [kgdsSummaryKind, kgdsFactsKind, kgdsOpinionsKind, kgdsFeedbackKind],
  templates: KGDS_TEMPLATES,
  isPermanent: (err) => err instanceof KgdsOutputError,
  checkSpec: checkKgdsSpec,
  score: scoreKgds,
  report: kgdsReport,
};
