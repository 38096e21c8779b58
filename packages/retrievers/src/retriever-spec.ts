import { type AnalyzerOptions, DEFAULT_ANALYZER } from './analyzer.js';
import { DEFAULT_BM25 } from './bm25.js';

export type RetrieverSpec =
  | { kind: 'bm25'; k1: number; b: number; analyzer: AnalyzerOptions }
  | { kind: 'tfidf'; analyzer: AnalyzerOptions }
  | { kind: 'lsa'; dimensions: number; seed: number; analyzer: AnalyzerOptions }
  | { kind: 'dense'; model: string }
  | { kind: 'rrf'; parts: RetrieverSpec[]; k: number; depth: number };

// Parameters a spec may set beside the retriever's name (all optional, defaults below).
export interface RetrieverParams {
  k1?: number;
  b?: number;
  dimensions?: number;
  seed?: number;
  lowercase?: boolean;
  stopwords?: 'english' | 'none';
  stemmer?: 'porter' | 'none';
  // Reciprocal rank fusion: its constant (60) and how deep each fused ranking is read (100).
  rrfK?: number;
  depth?: number;
}

export const RETRIEVER_CHOICES = 'bm25, tfidf, lsa, dense:<embedding model>, rrf:<a>+<b>[+<c>...]';
export const DEFAULT_LSA_DIMENSIONS = 100;

export class RetrieverSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetrieverSpecError';
  }
}

// `bm25`, `tfidf`, `lsa`, `dense:<model>` or `rrf:<a>+<b>...` (parts are any of the others).
export function parseRetriever(name: string, params: RetrieverParams = {}): RetrieverSpec {
  const text = name.trim();
  if (text.startsWith('rrf:')) {
    const parts = text.slice(4).split('+');
    if (parts.length < 2 || parts.some((p) => p.trim() === '' || p.trim().startsWith('rrf')))
      throw new RetrieverSpecError(
        `retriever "${name}": rank fusion takes two or more retrievers joined by '+', e.g. rrf:bm25+lsa (no nested rrf)`,
      );
    return {
      kind: 'rrf',
      parts: parts.map((p) => parseRetriever(p, params)),
      k: params.rrfK ?? 60,
      depth: params.depth ?? 100,
    };
  }
  const analyzer: AnalyzerOptions = {
    lowercase: params.lowercase ?? DEFAULT_ANALYZER.lowercase,
    stopwords: params.stopwords ?? DEFAULT_ANALYZER.stopwords,
    stemmer: params.stemmer ?? DEFAULT_ANALYZER.stemmer,
  };
  if (text === 'bm25')
    return { kind: 'bm25', k1: params.k1 ?? DEFAULT_BM25.k1, b: params.b ?? DEFAULT_BM25.b, analyzer };
  if (text === 'tfidf') return { kind: 'tfidf', analyzer };
  if (text === 'lsa')
    return {
      kind: 'lsa',
      dimensions: params.dimensions ?? DEFAULT_LSA_DIMENSIONS,
      seed: params.seed ?? 42,
      analyzer,
    };
  if (text.startsWith('dense:') && text.length > 6) return { kind: 'dense', model: text.slice(6) };
  throw new RetrieverSpecError(`unknown retriever "${name}": choose one of ${RETRIEVER_CHOICES}`);
}

const analyzerKey = (a: AnalyzerOptions) =>
  `lower=${a.lowercase ? 1 : 0},stop=${a.stopwords},stem=${a.stemmer}`;

// A canonical string naming the retriever and every parameter that changes its index or ranking:
// the key of a persisted index and the name reports show.
export function retrieverKey(spec: RetrieverSpec): string {
  switch (spec.kind) {
    case 'bm25':
      return `bm25(k1=${spec.k1},b=${spec.b},${analyzerKey(spec.analyzer)})`;
    case 'tfidf':
      return `tfidf(${analyzerKey(spec.analyzer)})`;
    case 'lsa':
      return `lsa(dims=${spec.dimensions},seed=${spec.seed},${analyzerKey(spec.analyzer)})`;
    case 'dense':
      return `dense(model=${spec.model})`;
    case 'rrf':
      return `rrf(k=${spec.k},depth=${spec.depth}:${spec.parts.map(retrieverKey).join('+')})`;
  }
}

// Short name as a user wrote it: bm25, dense:e5, rrf:bm25+lsa.
export function retrieverName(spec: RetrieverSpec): string {
  if (spec.kind === 'dense') return `dense:${spec.model}`;
  if (spec.kind === 'rrf') return `rrf:${spec.parts.map(retrieverName).join('+')}`;
  return spec.kind;
}
