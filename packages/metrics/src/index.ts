// @precis/metrics: pure metric and statistics functions (no I/O).
export const PACKAGE = 'metrics';

export { porterStem } from './rouge/porter-stemmer.js';
export {
  type RougeScore,
  RougeScorer,
  type RougeScorerOptions,
  type RougeType,
  rougeLScore,
  rougeLsumScore,
  rougeNScore,
} from './rouge/rouge.js';
export { type RougeTokenizeOptions, rougeTokenize } from './rouge/tokenize.js';
export {
  type BootstrapMeanResult,
  type BootstrapOptions,
  type BootstrapResult,
  bootstrapMean,
  bootstrapStatistic,
} from './stats/bootstrap.js';
export {
  type CorrelationMethod,
  type CorrelationTest,
  correlation,
  kendallTauB,
  kendallTest,
  pearson,
  pearsonTest,
  spearman,
  spearmanTest,
} from './stats/correlation.js';
export { mean, median, quantile, rmse, standardDeviation, variance } from './stats/descriptive.js';
export {
  type Alternative,
  type MannWhitneyOptions,
  type MannWhitneyResult,
  mannWhitneyU,
  type WelchResult,
  welchTTest,
} from './stats/hypothesis-tests.js';
export {
  type AlphaLevel,
  type KrippendorffResult,
  krippendorffAlpha,
  krippendorffAlphaDetailed,
  type RatingValue,
} from './stats/krippendorff.js';
export {
  type SummaryLevelAgreement,
  type SummaryLevelCorrelation,
  type SystemLevelCorrelation,
  summaryLevelAgreement,
  summaryLevelCorrelation,
  systemLevelCorrelation,
} from './stats/meta-evaluation.js';
export {
  holmAdjust,
  type PairedBootstrapResult,
  pairedBootstrap,
  significanceRanks,
} from './stats/paired-comparison.js';
export { averageRanks, tieGroupSizes } from './stats/ranks.js';
export { createRng, mulberry32, type Rng, randomInt, seedFromString } from './stats/rng.js';
export {
  erf,
  erfc,
  logGamma,
  normalCdf,
  normalSf,
  regularizedGammaP,
  regularizedGammaQ,
  regularizedIncompleteBeta,
  studentTCdf,
  studentTSf,
  studentTTwoSidedP,
} from './stats/special-functions.js';
export {
  coverAtK,
  type MeanOverQueries,
  meanCoverAtK,
  meanOverQueries,
  meanRecallAtK,
  recallAtK,
} from './tasks/retrieval.js';
