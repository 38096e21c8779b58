import { seededRandom } from './tf.js';
import type { TrainingGraph } from './train.js';

// A graph task whose right node is known. Chunks are random unit vectors; each response links
// its source chunk and `retrieved - 1` other chunks (features: their mean); a query is its
// source chunk seen through a fixed rotation R (a question is not worded like its passage) plus
// noise, and its label per node is the cosine to the source chunk, so the source ranks first.
// Raw query-node similarity is blind to R; a trained model can learn it.
export function syntheticGraphs(
  count: number,
  opts: { chunks: number; dim: number; queries: number; retrieved: number; seed: number },
): TrainingGraph[] {
  const rotation = randomRotation(opts.dim, seededRandom(12345));
  const rnd = seededRandom(opts.seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
  return Array.from({ length: count }, () => {
    const chunks = Array.from({ length: opts.chunks }, () => unit(Array.from({ length: opts.dim }, gauss)));
    const sources = shuffle([...chunks.keys()], rnd).slice(0, opts.queries);
    const edges: [number, number][] = [];
    const responses = sources.map((c, r) => {
      const others = shuffle(
        [...chunks.keys()].filter((x) => x !== c),
        rnd,
      ).slice(0, opts.retrieved - 1);
      for (const x of [c, ...others]) edges.push([opts.chunks + r, x]);
      return unit(
        [c, ...others].reduce((acc, x) => acc.map((v, d) => v + chunks[x]![d]!), new Array(opts.dim).fill(0)),
      );
    });
    const features = [...chunks, ...responses];
    const queries = sources.map((c) => ({
      embedding: Float32Array.from(unit(matVec(rotation, chunks[c]!).map((v) => v + 0.1 * gauss()))),
      labels: features.map((f) => dot(f, chunks[c]!)),
    }));
    return { nodes: features.length, features: Float32Array.from(features.flat()), edges, queries };
  });
}

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const unit = (v: number[]) => {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
};
const matVec = (m: number[][], v: number[]) => m.map((row) => dot(row, v));

function shuffle<T>(items: T[], rnd: () => number): T[] {
  return items
    .map((x) => ({ x, r: rnd() }))
    .sort((a, b) => a.r - b.r)
    .map((p) => p.x);
}

// A random orthogonal matrix: Gram-Schmidt on random rows.
function randomRotation(dim: number, rnd: () => number): number[][] {
  const rows: number[][] = [];
  while (rows.length < dim) {
    let v = Array.from({ length: dim }, () => rnd() * 2 - 1);
    for (const r of rows) {
      const p = dot(v, r);
      v = v.map((x, i) => x - p * r[i]!);
    }
    rows.push(unit(v));
  }
  return rows;
}
