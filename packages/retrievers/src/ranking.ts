export interface Ranking {
  hits: { id: string; score: number }[];
  // Why the ranking is shorter than asked, for the caller to say.
  warnings: string[];
}

function rankingWarnings(
  corpusSize: number,
  k: number,
  noTerms: boolean,
): { limit: number; warnings: string[] } {
  const warnings: string[] = [];
  if (noTerms) warnings.push('the query has no terms after analysis: nothing is ranked');
  if (k <= corpusSize) return { limit: k, warnings };
  warnings.push(
    `k = ${k} is more than the ${corpusSize} document${corpusSize === 1 ? '' : 's'} of the corpus: capped to ${corpusSize}`,
  );
  return { limit: corpusSize, warnings };
}

// The k best documents, best first; ties by document order (the corpus order), so a ranking is
// reproducible. Only `touched` documents are candidates and only positive scores rank. k beyond
// the corpus is capped, and a query with no terms ranks nothing; both are reported. A bounded
// heap keeps the k best, so a query touching most of a 100k corpus costs O(n log k), not a sort.
export function topKDense(
  ids: readonly string[],
  scores: Float64Array,
  touched: ArrayLike<number>,
  k: number,
  noTerms: boolean,
): Ranking {
  const { limit, warnings } = rankingWarnings(ids.length, k, noTerms);
  const heap = new BoundedHeap(limit, scores);
  for (let i = 0; i < touched.length; i++) {
    const doc = touched[i]!;
    if (scores[doc]! > 0) heap.offer(doc);
  }
  const hits = heap.sorted().map((doc) => ({ id: ids[doc]!, score: scores[doc]! }));
  return { hits, warnings };
}

// A min-heap of at most `size` documents by (score, then later document first), so its root is
// always the worst of the kept ones.
class BoundedHeap {
  private readonly items: number[] = [];
  constructor(
    private readonly size: number,
    private readonly scores: Float64Array,
  ) {}

  // a ranks below b: lower score, or the same score and later in the corpus.
  private worse(a: number, b: number): boolean {
    const d = this.scores[a]! - this.scores[b]!;
    return d < 0 || (d === 0 && a > b);
  }

  offer(doc: number): void {
    const h = this.items;
    if (h.length < this.size) {
      h.push(doc);
      this.up(h.length - 1);
    } else if (this.size > 0 && this.worse(h[0]!, doc)) {
      h[0] = doc;
      this.down(0);
    }
  }

  sorted(): number[] {
    return [...this.items].sort((a, b) => (this.worse(a, b) ? 1 : this.worse(b, a) ? -1 : 0));
  }

  private up(i: number): void {
    const h = this.items;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(h[i]!, h[p]!)) return;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.items;
    for (;;) {
      let m = i;
      for (const c of [2 * i + 1, 2 * i + 2]) if (c < h.length && this.worse(h[c]!, h[m]!)) m = c;
      if (m === i) return;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}
