import { norm, type SparseVector } from './terms.js';

export interface TextRankOptions {
  // PageRank damping factor.
  damping?: number;
  // Convergence threshold on the L1 change of the score vector.
  tolerance?: number;
  maxIterations?: number;
  // Above this many sentences each sentence keeps only its `neighbours` most similar ones,
  // which bounds memory on book-length input; below it the graph is complete.
  denseLimit?: number;
  neighbours?: number;
}

const DEFAULTS: Required<TextRankOptions> = {
  damping: 0.85,
  tolerance: 1e-10,
  maxIterations: 500,
  denseLimit: 400,
  neighbours: 64,
};

type Edge = { to: number; w: number };

// Weighted similarity graph: edge i -> j with the cosine of their TF-IDF vectors (no self loops).
// Dot products are accumulated through an inverted index, so only pairs sharing a term cost.
export function similarityGraph(vectors: readonly SparseVector[], opts: TextRankOptions = {}): Edge[][] {
  const { denseLimit, neighbours } = { ...DEFAULTS, ...opts };
  const n = vectors.length;
  const norms = vectors.map((v) => norm(v));
  const postings = new Map<string, { doc: number; w: number }[]>();
  vectors.forEach((v, doc) => {
    for (const [t, w] of v) {
      const list = postings.get(t);
      if (list) list.push({ doc, w });
      else postings.set(t, [{ doc, w }]);
    }
  });
  const acc = new Float64Array(n);
  const graph: Edge[][] = [];
  for (let i = 0; i < n; i++) {
    const touched: number[] = [];
    for (const [t, w] of vectors[i]!) {
      for (const p of postings.get(t)!) {
        if (p.doc === i) continue;
        if (acc[p.doc] === 0) touched.push(p.doc);
        acc[p.doc]! += w * p.w;
      }
    }
    let edges: Edge[] = [];
    for (const j of touched) {
      edges.push({ to: j, w: acc[j]! / (norms[i]! * norms[j]!) });
      acc[j] = 0;
    }
    if (n > denseLimit && edges.length > neighbours) {
      edges.sort((a, b) => b.w - a.w || a.to - b.to);
      edges = edges.slice(0, neighbours);
    }
    edges.sort((a, b) => a.to - b.to);
    graph.push(edges);
  }
  return graph;
}

// Weighted PageRank by power iteration (TextRank). Sentences without edges spread their score
// uniformly, so scores always sum to 1.
export function pageRank(graph: readonly Edge[][], opts: TextRankOptions = {}): number[] {
  const { damping, tolerance, maxIterations } = { ...DEFAULTS, ...opts };
  const n = graph.length;
  if (n === 0) return [];
  const outSum = graph.map((edges) => edges.reduce((s, e) => s + e.w, 0));
  let rank = new Float64Array(n).fill(1 / n);
  for (let iter = 0; iter < maxIterations; iter++) {
    const next = new Float64Array(n);
    let dangling = 0;
    for (let i = 0; i < n; i++) {
      if (outSum[i]! > 0) {
        const share = (damping * rank[i]!) / outSum[i]!;
        for (const e of graph[i]!) next[e.to]! += share * e.w;
      } else {
        dangling += rank[i]!;
      }
    }
    const base = (1 - damping) / n + (damping * dangling) / n;
    let delta = 0;
    for (let j = 0; j < n; j++) {
      next[j]! += base;
      delta += Math.abs(next[j]! - rank[j]!);
    }
    rank = next;
    if (delta < tolerance) break;
  }
  return Array.from(rank);
}

// Sentence indexes from most to least central; equal scores (to 12 digits) keep text order.
export function rankOrder(scores: readonly number[]): number[] {
  const key = scores.map((s) => Math.round(s * 1e12));
  return scores.map((_, i) => i).sort((a, b) => key[b]! - key[a]! || a - b);
}
