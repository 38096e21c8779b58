import type { DimensionLeaderboard } from '../dimensions/dimension-scores.js';

// Why the human-correlation table reads n/a: no rated summary was judged, or a product's judge
// scores (or its ratings) did not vary, so no correlation is defined for it.
export function humanCorrelationNotes(b: DimensionLeaderboard): string[] {
  if (!b.humanCorrelation) {
    const rated = b.rows.some((r) => Object.values(r.dimensions).some((c) => c.human !== null));
    return [
      rated
        ? 'No correlation with the human ratings: no rated summary has a judge score (their judgments failed).'
        : 'No correlation with human ratings: none of the judged summaries has one. Ratings come with the candidate summaries of a SummEval-OP dataset (systems with `source: dataset`); generated summaries have none.',
    ];
  }
  const short = b.dimensions.flatMap((d) => {
    const c = b.humanCorrelation?.[d];
    return c?.skipped ? [`${d} ${c.skipped} of ${c.products + c.skipped}`] : [];
  });
  if (short.length === 0) return [];
  return [
    `products = the products whose rated summaries the correlation used. A product is left out when the judge gave all its rated summaries the same score, or the human ratings of them are all equal: no correlation is defined there (n/a when no product is left). Left out: ${short.join(', ')}.`,
  ];
}
