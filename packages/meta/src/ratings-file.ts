import { readErrorReason, readLocalText } from '@precis/files';
import { OPINION_DIMENSION_SHORT_IDS, type OpinionDimensionId, toOpinionDimensionId } from '@precis/prompts';
import { forEachJsonObjectLine, MetaInputError } from './errors.js';

// One product of a per-rater ratings file: ratings[dimension][summary][rater], null = missing.
export interface RatedProduct {
  line: number;
  summaries: string[];
  ratings: Partial<Record<OpinionDimensionId, (number | null)[][]>>;
}

export interface RatingsFile {
  file: string;
  raters: number;
  products: RatedProduct[];
}

export async function readRatingsFile(path: string): Promise<RatingsFile> {
  let text: string;
  try {
    text = readLocalText(path);
  } catch (err) {
    throw new MetaInputError(`cannot read the ratings file (${readErrorReason(err)})`, { file: path });
  }
  return parseRatingsText(path, text);
}

// Fields a product line may carry beside its ratings, skipped: the publisher's per-rater file
// (SummEval-OP annotated_dataset/summeval-op-detailed.jsonl) gives each product's `reviews`.
export const NON_RATING_FIELDS: readonly string[] = ['reviews', 'id', 'product_id', 'systems', 'metadata'];

// SummEval-OP's mean-ratings file keys summaries by system, each with its mean `dimensions`.
const isMeanRatingsLayout = (summaries: unknown) =>
  summaries !== null &&
  typeof summaries === 'object' &&
  !Array.isArray(summaries) &&
  Object.values(summaries).some((s) => (s as { dimensions?: unknown } | null)?.dimensions !== undefined);

// JSONL, one product per line: {"summaries": [text, ...], "fl": [[r1, r2, r3], ...], ...}.
// Dimension keys are short (fl, co, re, fa, ac, sc, sp) or canonical ids; every row of every
// dimension in the file has the same number of raters. NON_RATING_FIELDS are ignored.
export function parseRatingsText(file: string, text: string): RatingsFile {
  const products: RatedProduct[] = [];
  let raters: number | null = null;
  forEachJsonObjectLine(file, text, '{"summaries": [...], "fl": [[...], ...], ...}', (obj, line, fail) => {
    const summaries = obj.summaries;
    if (isMeanRatingsLayout(summaries)) {
      fail(
        "this is a mean-ratings file (summaries keyed by system, each with the mean of its raters); agreement needs each rater's ratings, one row per summary, as in SummEval-OP's annotated_dataset/summeval-op-detailed.jsonl",
        'summaries',
      );
    }
    if (!Array.isArray(summaries) || summaries.length === 0 || summaries.some((s) => typeof s !== 'string')) {
      fail('"summaries" must be a non-empty array of summary texts', 'summaries');
    }
    const product: RatedProduct = { line, summaries: summaries as string[], ratings: {} };
    for (const [key, rows] of Object.entries(obj)) {
      if (key === 'summaries' || NON_RATING_FIELDS.includes(key)) continue;
      const dim = toOpinionDimensionId(key);
      if (!dim) {
        fail(
          `unknown dimension "${key}"; use ${Object.keys(OPINION_DIMENSION_SHORT_IDS).join(', ')} or the canonical ids (ignored fields: summaries, ${NON_RATING_FIELDS.join(', ')})`,
          key,
        );
      }
      if (product.ratings[dim!]) fail(`dimension ${dim} given twice`, key);
      if (!Array.isArray(rows) || rows.length !== product.summaries.length) {
        fail(`needs one row of ratings per summary (${product.summaries.length} rows)`, key);
      }
      product.ratings[dim!] = (rows as unknown[]).map((row, s) => {
        const field = `${key}[${s}]`;
        if (!Array.isArray(row) || row.length === 0)
          fail('must be a non-empty array of ratings, one per rater', field);
        const r = row as unknown[];
        if (raters === null) raters = r.length;
        else if (r.length !== raters) {
          fail(
            `has ${r.length} ratings but earlier rows have ${raters}; give every rater a slot (null = missing)`,
            field,
          );
        }
        return r.map((v, k) => {
          if (v === null) return null;
          if (typeof v !== 'number' || !Number.isFinite(v))
            fail('a rating must be a number or null', `${field}[${k}]`);
          return v as number;
        });
      });
    }
    if (Object.keys(product.ratings).length === 0) {
      fail('no ratings: add at least one dimension (fl, co, re, fa, ac, sc, sp)');
    }
    products.push(product);
  });
  if (products.length === 0) throw new MetaInputError('no products in the ratings file', { file });
  return { file, raters: raters ?? 0, products };
}
