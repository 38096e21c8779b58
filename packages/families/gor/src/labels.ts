import { contentTerms } from '@precis/engines';

// Greedy-matching labels (METHODS.md §5.6): for query i, every node's BERTScore-style F1 against
// the query's source chunk: each word takes its best cosine among the other text's words
// (precision over the node's words, recall over the chunk's). Words are content terms; a word's
// best match is the same at each occurrence, so the sums run over distinct words times counts,
// and one word-by-word cosine table serves every pair. Words with no vector are left out.
export function greedyLabels(
  nodes: readonly string[],
  sources: readonly number[],
  vectors: ReadonlyMap<string, Float32Array>,
): number[][] {
  const ids = new Map<string, number>();
  const units: Float32Array[] = [];
  const bags = nodes.map((text) => {
    const bag = new Map<number, number>();
    for (const t of contentTerms(text)) {
      let id = ids.get(t);
      if (id === undefined) {
        const v = vectors.get(t);
        const n = v ? Math.hypot(...v) : 0;
        if (!v || n === 0) continue;
        id = units.length;
        ids.set(t, id);
        units.push(v.map((x) => x / n));
      }
      bag.set(id, (bag.get(id) ?? 0) + 1);
    }
    return bag;
  });
  const sim = cosineTable(units);
  const size = units.length;
  const best = (from: Map<number, number>, to: Map<number, number>) => {
    let sum = 0;
    let count = 0;
    for (const [a, c] of from) {
      let m = -1;
      for (const b of to.keys()) m = Math.max(m, sim[a * size + b]!);
      sum += c * m;
      count += c;
    }
    return sum / count;
  };
  return sources.map((source) =>
    bags.map((bag) => {
      const ref = bags[source]!;
      if (bag.size === 0 || ref.size === 0) return 0;
      const p = best(bag, ref);
      const r = best(ref, bag);
      return p + r <= 0 ? 0 : (2 * p * r) / (p + r);
    }),
  );
}

function cosineTable(units: readonly Float32Array[]): Float32Array {
  const n = units.length;
  const out = new Float32Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = i; j < n; j++) {
      const a = units[i]!;
      const b = units[j]!;
      let s = 0;
      for (let d = 0; d < a.length; d++) s += a[d]! * b[d]!;
      out[i * n + j] = s;
      out[j * n + i] = s;
    }
  return out;
}

// The distinct content terms of the texts, in first-seen order (the words to embed).
export function labelWords(texts: readonly string[]): string[] {
  return [...new Set(texts.flatMap((t) => contentTerms(t)))];
}
