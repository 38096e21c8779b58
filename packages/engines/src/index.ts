export { removeArtifacts } from './artifacts.js';
export {
  annotateDuplication,
  DUPLICATION_ENGINE,
  type DuplicationOptions,
  type DuplicationVerdict,
  HeuristicDuplicationAnnotator,
} from './duplication.js';
export {
  balanceQuotes,
  isProse,
  leadSummary,
  type Sentence,
  selectWithinBudget,
  sentencesOf,
  type TextRankSummaryOptions,
  textRankSummary,
} from './extract.js';
export { createLeadEngine, LEAD_ENGINE } from './lead-engine.js';
export {
  LEXICAL_THRESHOLD,
  LEXICAL_VERIFIER,
  lexicallyInferred,
  lexicalOpinionError,
  termRecall,
} from './lexical-verifier.js';
export {
  firstSentence,
  LEXICAL_PERSPECTIVES,
  leadPerspectiveSummary,
  lexicallyEntails,
  lexicalRating,
  lexicalReference,
  lexicalStance,
  mergePerspectiveSummaries,
  type PerspectiveSummary,
} from './perspectives.js';
export { EXTRACTIVE_RESPONDER, queryFocusedAnswer } from './query-answer.js';
export { HEURISTIC_QUERY_SIMULATOR, type SimulatedQuery, simulateQueries } from './query-simulation.js';
export type {
  ArtifactRemover,
  ChunkSummarizer,
  CoherenceAnnotator,
  CoherenceVerdict,
  RoleResult,
  SummaryCompressor,
  SummaryEngine,
  SummaryMerger,
  SummaryUpdater,
} from './roles.js';
export { contentTerms, cosine, type SparseVector, tfidfVectors } from './terms.js';
export { pageRank, rankOrder, similarityGraph, type TextRankOptions } from './textrank.js';
export { createTextRankEngine, TEXTRANK_ENGINE, type TextRankEngineOptions } from './textrank-engine.js';
