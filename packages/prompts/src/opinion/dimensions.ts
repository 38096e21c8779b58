// The ids of the seven opinion-summary dimensions (METHODS.md §4.1), shared by the opinion
// family and the meta-evaluation; their definitions live in the opinion family's prompts.
// Ids match the canonical ids written by the SummEval-OP importer.
export const OPINION_DIMENSION_IDS = [
  'fluency',
  'coherence',
  'relevance',
  'faithfulness',
  'aspect_coverage',
  'sentiment_consistency',
  'specificity',
] as const;
export type OpinionDimensionId = (typeof OPINION_DIMENSION_IDS)[number];

// Two-letter ids used in per-rater ratings files.
export const OPINION_DIMENSION_SHORT_IDS: Record<string, OpinionDimensionId> = {
  fl: 'fluency',
  co: 'coherence',
  re: 'relevance',
  fa: 'faithfulness',
  ac: 'aspect_coverage',
  sc: 'sentiment_consistency',
  sp: 'specificity',
};

export function isOpinionDimensionId(value: string): value is OpinionDimensionId {
  return (OPINION_DIMENSION_IDS as readonly string[]).includes(value);
}

// Accepts a canonical id or a two-letter short id; null when neither.
export function toOpinionDimensionId(value: string): OpinionDimensionId | null {
  if (isOpinionDimensionId(value)) return value;
  return OPINION_DIMENSION_SHORT_IDS[value] ?? null;
}
