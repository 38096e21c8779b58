import { type AnalyzerOptions, analyze, DEFAULT_ANALYZER } from './analyzer.js';
import { pack, unpack } from './packed.js';
import { type Ranking, topKDense } from './ranking.js';

type Vector = Map<string, number>;

// Raw term counts; `keep` drops terms (a query keeps only those some document has).
export function countTerms(terms: readonly string[], keep: (term: string) => boolean = () => true): Vector {
  const tf: Vector = new Map();
  for (const t of terms) if (keep(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}

// scikit-learn's smoothed idf, as if one extra document held every term once.
export function smoothedIdf(documents: number, df: number): number {
  return Math.log((1 + documents) / (1 + df)) + 1;
}

// Counts times idf, L2-normalized; shared by TF-IDF and LSA so both see the same vectors.
export function tfidfVector(tf: ReadonlyMap<string, number>, idf: (term: string) => number): Vector {
  const v: Vector = new Map();
  let norm = 0;
  for (const [t, n] of tf) {
    const w = n * idf(t);
    v.set(t, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [t, w] of v) v.set(t, w / norm);
  return v;
}

// TF-IDF cosine as scikit-learn's TfidfVectorizer defaults: raw term counts times the smoothed
// idf ln((1 + N) / (1 + df)) + 1, each vector L2-normalized; the score is the dot product, summed
// over an inverted index of the normalized document weights.
export class TfidfIndex {
  private readonly terms: Map<string, number>;
  private readonly scratch: Float64Array;

  private constructor(
    private readonly ids: readonly string[],
    vocabulary: readonly string[],
    // Term t's postings are docs[offsets[t] .. offsets[t + 1]) with their weights.
    private readonly p: { offsets: Int32Array; docs: Int32Array; weights: Float64Array },
    readonly analyzer: AnalyzerOptions,
  ) {
    this.terms = new Map(vocabulary.map((t, i) => [t, i]));
    this.scratch = new Float64Array(ids.length);
  }

  static build(
    documents: readonly { id: string; text: string }[],
    analyzer: AnalyzerOptions = DEFAULT_ANALYZER,
  ): TfidfIndex {
    const df = new Map<string, number>();
    const counts = documents.map((d) => {
      const tf = countTerms(analyze(d.text, analyzer));
      for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
      return tf;
    });
    const vocabulary = [...df.keys()];
    const termIds = new Map(vocabulary.map((t, i) => [t, i]));
    const perTerm: number[][] = vocabulary.map(() => []);
    counts.forEach((tf, doc) => {
      const v = tfidfVector(tf, (t) => smoothedIdf(documents.length, df.get(t)!));
      for (const [t, w] of v) perTerm[termIds.get(t)!]!.push(doc, w);
    });
    const offsets = new Int32Array(vocabulary.length + 1);
    perTerm.forEach((list, t) => {
      offsets[t + 1] = offsets[t]! + list.length / 2;
    });
    const docs = new Int32Array(offsets[vocabulary.length]!);
    const weights = new Float64Array(docs.length);
    perTerm.forEach((list, t) => {
      for (let i = 0; i < list.length; i += 2) {
        docs[offsets[t]! + i / 2] = list[i]!;
        weights[offsets[t]! + i / 2] = list[i + 1]!;
      }
    });
    return new TfidfIndex(
      documents.map((d) => d.id),
      vocabulary,
      { offsets, docs, weights },
      analyzer,
    );
  }

  get size(): number {
    return this.ids.length;
  }

  idf(term: string): number {
    const t = this.terms.get(term);
    return smoothedIdf(this.ids.length, t === undefined ? 0 : this.p.offsets[t + 1]! - this.p.offsets[t]!);
  }

  // Terms of the query that no document has carry no weight (they match nothing).
  search(query: string, k: number): Ranking {
    const terms = analyze(query, this.analyzer);
    const q = tfidfVector(
      countTerms(terms, (t) => this.terms.has(t)),
      (t) => this.idf(t),
    );
    const { offsets, docs, weights } = this.p;
    const scores = this.scratch;
    const touched: number[] = [];
    for (const [term, w] of q) {
      const t = this.terms.get(term)!;
      for (let i = offsets[t]!; i < offsets[t + 1]!; i++) {
        const doc = docs[i]!;
        if (scores[doc] === 0) touched.push(doc);
        scores[doc]! += w * weights[i]!;
      }
    }
    const ranking = topKDense(this.ids, scores, touched, k, terms.length === 0);
    for (const doc of touched) scores[doc] = 0;
    return ranking;
  }

  serialize(): Uint8Array {
    const { offsets, docs, weights } = this.p;
    const header = {
      kind: 'tfidf',
      analyzer: this.analyzer,
      ids: this.ids,
      vocabulary: [...this.terms.keys()],
    };
    return pack(header, { offsets, docs, weights });
  }

  static deserialize(bytes: Uint8Array): TfidfIndex {
    type Header = { kind: string; analyzer: AnalyzerOptions; ids: string[]; vocabulary: string[] };
    const { header, arrays } = unpack<Header>(bytes);
    if (header.kind !== 'tfidf') throw new Error(`not a TF-IDF index (it holds ${header.kind})`);
    const postings = arrays as unknown as { offsets: Int32Array; docs: Int32Array; weights: Float64Array };
    return new TfidfIndex(header.ids, header.vocabulary, postings, header.analyzer);
  }
}
