import {
  expectNumber,
  expectObject,
  expectString,
  fieldPath,
  type JsonObject,
  jsonlRecords,
  type ParsedDataset,
  type ParsedDocument,
  RecordContext,
  requireField,
} from '@precis/ingest';

// The file's dimension names and the canonical ids used everywhere else in Precis (METHODS.md §4.1).
export const SUMMEVAL_OP_DIMENSIONS = {
  Fluency: 'fluency',
  Coherence: 'coherence',
  Relevance: 'relevance',
  Faithfulness: 'faithfulness',
  'Aspect Coverage': 'aspect_coverage',
  'Sentiment Consistency': 'sentiment_consistency',
  Specificity: 'specificity',
} as const;
export type OpinionDimension = (typeof SUMMEVAL_OP_DIMENSIONS)[keyof typeof SUMMEVAL_OP_DIMENSIONS];
export const OPINION_DIMENSIONS = Object.values(SUMMEVAL_OP_DIMENSIONS) as OpinionDimension[];

const FILE_DIMENSIONS = Object.keys(SUMMEVAL_OP_DIMENSIONS) as (keyof typeof SUMMEVAL_OP_DIMENSIONS)[];

// One line per product: reviews become 'review' chunks; candidate summaries with their mean
// human ratings go to document.data.
export function parseSummevalOpDataset(
  file: string,
  text: string,
  onRecord?: (n: number) => void,
): ParsedDataset {
  const documents: ParsedDocument[] = [];
  const counts = { documents: 0, products: 0, reviews: 0, summaries: 0 };
  for (const { line, ctx, value } of jsonlRecords(file, text)) {
    const doc = parseProduct(ctx, value, line, documents.length);
    documents.push(doc);
    counts.documents++;
    counts.products++;
    counts.reviews += doc.chunks.length;
    counts.summaries += (doc.data.summaries as unknown[]).length;
    onRecord?.(documents.length);
  }
  return { kind: 'summeval-op', file, documents, counts, metadata: { dimensions: OPINION_DIMENSIONS } };
}

function parseProduct(ctx: RecordContext, value: unknown, line: number, ordinal: number): ParsedDocument {
  const product = expectObject(ctx, value, undefined);
  const reviews = expectObject(ctx, requireField(ctx, product, 'reviews', ''), 'reviews');
  const reviewIds = Object.keys(reviews);
  if (reviewIds.length === 0) ctx.fail('reviews', 'a product needs at least one review');
  const chunks = reviewIds.map((id, i) => ({
    kind: 'review' as const,
    text: expectString(ctx, reviews[id], fieldPath('reviews', id), { nonEmpty: true }),
    sourceIndex: i,
    metadata: { reviewId: id },
  }));

  const summaries = expectObject(ctx, requireField(ctx, product, 'summaries', ''), 'summaries');
  const systems = Object.keys(summaries);
  if (systems.length === 0) ctx.fail('summaries', 'a product needs at least one rated summary');
  const rated: JsonObject[] = systems.map((system) => {
    const base = fieldPath('summaries', system);
    const entry = expectObject(ctx, summaries[system], base);
    const summary = expectString(ctx, requireField(ctx, entry, 'summary', base), fieldPath(base, 'summary'), {
      nonEmpty: true,
    });
    const dimsBase = fieldPath(base, 'dimensions');
    const dims = expectObject(ctx, requireField(ctx, entry, 'dimensions', base), dimsBase);
    const ratings: Record<string, number> = {};
    for (const name of Object.keys(dims)) {
      if (!(name in SUMMEVAL_OP_DIMENSIONS)) {
        ctx.fail(fieldPath(dimsBase, name), 'unknown dimension', `use one of ${FILE_DIMENSIONS.join(', ')}`);
      }
    }
    for (const name of FILE_DIMENSIONS) {
      const field = fieldPath(dimsBase, name);
      const score = expectNumber(
        ctx,
        requireField(ctx, dims, name, dimsBase, `add the mean rating for "${name}"`),
        field,
      );
      if (score < 1 || score > 5) ctx.fail(field, `rating ${score} is outside the 1-5 scale`);
      ratings[SUMMEVAL_OP_DIMENSIONS[name]] = score;
    }
    return { system, summary, ratings };
  });

  return {
    externalId: `product-${String(ordinal + 1).padStart(2, '0')}`,
    title: null,
    text: chunks.map((c) => c.text).join('\n\n'),
    data: { summaries: rated },
    metadata: { line },
    chunks,
  };
}
