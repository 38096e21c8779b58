import type { BenchmarkFamily } from '@precis/engine/family';
import { summevalOpDatasetKind } from './dataset/summeval-op-kind.js';
import { scoreDimensions } from './dimensions/dimension-scores.js';
import { dimensionsMetric, gevalStepsKind, judgeDimensionKind } from './dimensions/dimensions-metric.js';
import { checkOneDimensionsMetric } from './dimensions/dimensions-spec.js';
import { OPINION_SUMMARY_TEMPLATE } from './prompts/generate.template.js';
import { GEVAL_SCORE_TEMPLATES, GEVAL_STEPS_TEMPLATES } from './prompts/geval.templates.js';
import { OP_TEMPLATES } from './prompts/op.templates.js';
import { OP_I_TEMPLATE } from './prompts/op-i.template.js';
import { dimensionReport } from './report/render-dimension-leaderboard.js';
import { datasetSource } from './summary/dataset-source.js';
import { opinionStrategy, opinionSummaryKind } from './summary/opinion-strategy.js';

// Opinion summaries (METHODS.md §4): products' reviews summarized in one paragraph, or the
// candidate summaries stored in a SummEval-OP dataset, judged on seven dimensions.
export const opinionFamily: BenchmarkFamily = {
  name: 'opinion',
  // SummEval-OP products: reviews and rated candidate summaries.
  datasetKinds: [summevalOpDatasetKind],
  strategies: [opinionStrategy],
  sources: [datasetSource],
  metrics: [dimensionsMetric],
  taskKinds: [opinionSummaryKind, gevalStepsKind, judgeDimensionKind],
  templates: [
    OPINION_SUMMARY_TEMPLATE,
    OP_I_TEMPLATE,
    ...Object.values(OP_TEMPLATES),
    ...Object.values(GEVAL_STEPS_TEMPLATES),
    ...Object.values(GEVAL_SCORE_TEMPLATES),
  ],
  checkSpec: checkOneDimensionsMetric,
  score: scoreDimensions,
  report: dimensionReport,
};
