import { type AnalyzerOptions, analyze, DEFAULT_ANALYZER } from './analyzer.js';
import { pack, unpack } from './packed.js';
import { type Ranking, topKDense } from './ranking.js';

export interface Bm25Options {
  // Term-frequency saturation and length normalization; 0.9 / 0.4 as Pyserini's defaults.
  k1: number;
  b: number;
  analyzer: AnalyzerOptions;
}

export const DEFAULT_BM25: Bm25Options = { k1: 0.9, b: 0.4, analyzer: DEFAULT_ANALYZER };

interface Postings {
  // Term t's postings are docs[offsets[t] .. offsets[t + 1]) with their term frequencies.
  offsets: Int32Array;
  docs: Int32Array;
  tfs: Int32Array;
  lengths: Int32Array;
}

// Okapi BM25 over an inverted index, with Lucene's idf: ln(1 + (N - df + 0.5) / (df + 0.5)) and
// score = sum over query terms of idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl)).
export class Bm25Index {
  private readonly terms: Map<string, number>;
  // k1 * (1 - b + b * dl / avgdl) per document, computed once.
  private readonly norms: Float64Array;
  private readonly scratch: Float64Array;

  private constructor(
    private readonly ids: readonly string[],
    vocabulary: readonly string[],
    private readonly p: Postings,
    readonly options: Bm25Options,
  ) {
    this.terms = new Map(vocabulary.map((t, i) => [t, i]));
    let total = 0;
    for (const n of p.lengths) total += n;
    const avgdl = ids.length ? total / ids.length : 0;
    const { k1, b } = options;
    this.norms = Float64Array.from(p.lengths, (dl) => k1 * (1 - b + (b * dl) / avgdl));
    this.scratch = new Float64Array(ids.length);
  }

  static build(
    documents: readonly { id: string; text: string }[],
    options: Bm25Options = DEFAULT_BM25,
  ): Bm25Index {
    const vocabulary: string[] = [];
    const termIds = new Map<string, number>();
    const perTerm: number[][] = [];
    const lengths = new Int32Array(documents.length);
    documents.forEach((d, doc) => {
      const terms = analyze(d.text, options.analyzer);
      lengths[doc] = terms.length;
      const tf = new Map<number, number>();
      for (const t of terms) {
        let id = termIds.get(t);
        if (id === undefined) {
          id = vocabulary.push(t) - 1;
          termIds.set(t, id);
          perTerm.push([]);
        }
        tf.set(id, (tf.get(id) ?? 0) + 1);
      }
      for (const [id, n] of tf) perTerm[id]!.push(doc, n);
    });
    const offsets = new Int32Array(vocabulary.length + 1);
    perTerm.forEach((list, t) => {
      offsets[t + 1] = offsets[t]! + list.length / 2;
    });
    const docs = new Int32Array(offsets[vocabulary.length]!);
    const tfs = new Int32Array(docs.length);
    perTerm.forEach((list, t) => {
      for (let i = 0; i < list.length; i += 2) {
        docs[offsets[t]! + i / 2] = list[i]!;
        tfs[offsets[t]! + i / 2] = list[i + 1]!;
      }
    });
    return new Bm25Index(
      documents.map((d) => d.id),
      vocabulary,
      { offsets, docs, tfs, lengths },
      options,
    );
  }

  get size(): number {
    return this.ids.length;
  }

  idf(term: string): number {
    const t = this.terms.get(term);
    const df = t === undefined ? 0 : this.p.offsets[t + 1]! - this.p.offsets[t]!;
    return Math.log(1 + (this.ids.length - df + 0.5) / (df + 0.5));
  }

  // The k best documents for the query (a repeated query term counts again).
  search(query: string, k: number): Ranking {
    const terms = analyze(query, this.options.analyzer);
    const { offsets, docs, tfs } = this.p;
    const scores = this.scratch;
    const touched: number[] = [];
    const k1 = this.options.k1;
    for (const term of terms) {
      const t = this.terms.get(term);
      if (t === undefined) continue;
      const idf = this.idf(term);
      for (let i = offsets[t]!; i < offsets[t + 1]!; i++) {
        const doc = docs[i]!;
        const tf = tfs[i]!;
        if (scores[doc] === 0) touched.push(doc);
        scores[doc]! += (idf * tf * (k1 + 1)) / (tf + this.norms[doc]!);
      }
    }
    const ranking = topKDense(this.ids, scores, touched, k, terms.length === 0);
    for (const doc of touched) scores[doc] = 0;
    return ranking;
  }

  serialize(): Uint8Array {
    const vocabulary = [...this.terms.keys()];
    const { offsets, docs, tfs, lengths } = this.p;
    return pack(
      { kind: 'bm25', options: this.options, ids: this.ids, vocabulary },
      { offsets, docs, tfs, lengths },
    );
  }

  static deserialize(bytes: Uint8Array): Bm25Index {
    const { header, arrays } = unpack<{
      kind: string;
      options: Bm25Options;
      ids: string[];
      vocabulary: string[];
    }>(bytes);
    if (header.kind !== 'bm25') throw new Error(`not a BM25 index (it holds ${header.kind})`);
    const postings = arrays as unknown as Postings;
    return new Bm25Index(header.ids, header.vocabulary, postings, header.options);
  }
}
