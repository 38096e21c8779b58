import { type AnalyzerOptions, analyze, DEFAULT_ANALYZER } from './analyzer.js';
import { type Ranking, topK } from './ranking.js';

export interface Bm25Options {
  // Term-frequency saturation and length normalization; 0.9 / 0.4 as Pyserini's defaults.
  k1: number;
  b: number;
  analyzer: AnalyzerOptions;
}

export const DEFAULT_BM25: Bm25Options = { k1: 0.9, b: 0.4, analyzer: DEFAULT_ANALYZER };

// Okapi BM25 over an inverted index, with Lucene's idf: ln(1 + (N - df + 0.5) / (df + 0.5)) and
// score = sum over query terms of idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl)).
export class Bm25Index {
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private readonly lengths: number[] = [];
  private readonly ids: string[] = [];
  private avgdl = 0;

  constructor(
    documents: readonly { id: string; text: string }[],
    readonly options: Bm25Options = DEFAULT_BM25,
  ) {
    documents.forEach((d, doc) => {
      const terms = analyze(d.text, options.analyzer);
      this.ids.push(d.id);
      this.lengths.push(terms.length);
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        const list = this.postings.get(t) ?? [];
        list.push({ doc, tf: n });
        this.postings.set(t, list);
      }
    });
    const total = this.lengths.reduce((a, n) => a + n, 0);
    this.avgdl = this.ids.length ? total / this.ids.length : 0;
  }

  get size(): number {
    return this.ids.length;
  }

  idf(term: string): number {
    const df = this.postings.get(term)?.length ?? 0;
    return Math.log(1 + (this.ids.length - df + 0.5) / (df + 0.5));
  }

  // Scores of every document with a query term (a repeated query term counts again).
  scores(query: string): Map<number, number> {
    const { k1, b } = this.options;
    const scores = new Map<number, number>();
    for (const term of analyze(query, this.options.analyzer)) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = this.idf(term);
      for (const { doc, tf } of list) {
        const norm = k1 * (1 - b + (b * this.lengths[doc]!) / this.avgdl);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (k1 + 1)) / (tf + norm));
      }
    }
    return scores;
  }

  search(query: string, k: number): Ranking {
    return topK(this.ids, this.scores(query), k, analyze(query, this.options.analyzer).length === 0);
  }
}
