import { type AnalyzerOptions, analyze, DEFAULT_ANALYZER } from './analyzer.js';
import { type Ranking, topK } from './ranking.js';

type Vector = Map<string, number>;

// TF-IDF cosine as scikit-learn's TfidfVectorizer defaults: raw term counts times the smoothed
// idf ln((1 + N) / (1 + df)) + 1, each vector L2-normalized; the score is the dot product.
export class TfidfIndex {
  private readonly df = new Map<string, number>();
  private readonly vectors: Vector[] = [];
  private readonly ids: string[] = [];

  constructor(
    documents: readonly { id: string; text: string }[],
    readonly analyzer: AnalyzerOptions = DEFAULT_ANALYZER,
  ) {
    const counts = documents.map((d) => {
      this.ids.push(d.id);
      const tf: Vector = new Map();
      for (const t of analyze(d.text, analyzer)) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      return tf;
    });
    for (const tf of counts) this.vectors.push(this.weigh(tf));
  }

  idf(term: string): number {
    return Math.log((1 + this.ids.length) / (1 + (this.df.get(term) ?? 0))) + 1;
  }

  private weigh(tf: Vector): Vector {
    const v: Vector = new Map();
    let norm = 0;
    for (const [t, n] of tf) {
      const w = n * this.idf(t);
      v.set(t, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (const [t, w] of v) v.set(t, w / norm);
    return v;
  }

  // Terms of the query that no document has carry no weight (they match nothing).
  search(query: string, k: number): Ranking {
    const terms = analyze(query, this.analyzer);
    const tf: Vector = new Map();
    for (const t of terms) if (this.df.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
    const q = this.weigh(tf);
    const scores = new Map<number, number>();
    this.vectors.forEach((v, doc) => {
      let dot = 0;
      for (const [t, w] of q) dot += w * (v.get(t) ?? 0);
      if (dot > 0) scores.set(doc, dot);
    });
    return topK(this.ids, scores, k, terms.length === 0);
  }
}
