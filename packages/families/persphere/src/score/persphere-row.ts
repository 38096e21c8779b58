import { bootstrapInOrder, describeWork, isComplete, type RowWork } from '@precis/engine/family';
import { coverAtK, recallAtK } from '@precis/metrics';
import { macroF1 } from '../metrics/classification.js';

// The PerSphere numbers of a leaderboard row: Recall@k, Cover@k, Rp@k and the sub-task F1s in
// percent, Overall@k as the mean 1–10 rating.
export interface PersphereNumbers {
  retriever: string;
  // null for the golden documents (each query's own evidence, however many).
  k: number | null;
  recall: number;
  cover: number;
  overall: number;
  rp: number;
  stanceF1: number | null;
  referenceF1: number | null;
}

export interface PersphereRow {
  system: string;
  summarizer: string;
  strategy: string;
  metric: string;
  // Who judged Overall@k and Rp@k; stance and reference are answered by the system's summarizer.
  judge: string;
  samples: number;
  work: RowWork;
  status: string;
  // Null unless the row's work is complete (never numbers over only what survived).
  persphere: PersphereNumbers | null;
  ci95: Record<string, [number, number]>;
  // Queries whose ranking came with a warning (no terms after analysis, k capped).
  retrievalWarnings: number;
}

export interface SampleInput {
  order: number;
  relevant: string[];
  perspectiveEvidence: string[][];
  retrieved: string[];
  rating: number;
  rpEntailed: boolean[];
  stance: { gold: 1 | 2; predicted: 1 | 2 }[];
  reference: { gold: boolean; predicted: boolean }[];
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

// One query's numbers: Recall@k, Cover@k and Rp@k in percent, Overall@k as its 1–10 rating.
export function persphereSampleScores(s: SampleInput, k: number | null) {
  const cut = Math.max(1, k ?? s.retrieved.length);
  return {
    recall: 100 * recallAtK(s.relevant, s.retrieved, cut),
    cover: 100 * coverAtK(s.perspectiveEvidence, s.retrieved, cut),
    rp: (100 * s.rpEntailed.filter(Boolean).length) / Math.max(1, s.rpEntailed.length),
    overall: s.rating,
  };
}

// A system's row (METHODS.md §3.2–3.5): per-query means with bootstrap CIs; stance and reference
// macro-F1 over every pair of the system's queries pooled.
export function persphereRow(
  head: Omit<PersphereRow, 'samples' | 'work' | 'status' | 'persphere' | 'ci95' | 'retrievalWarnings'> & {
    retriever: string;
    k: number | null;
  },
  samples: readonly SampleInput[],
  work: RowWork,
  retrievalWarnings: number,
  opts: { resamples: number; seed: number | string },
): PersphereRow {
  const scored = samples.map((s) => ({ order: s.order, ...persphereSampleScores(s, head.k) }));
  const stance = samples.flatMap((s) => s.stance);
  const reference = samples.flatMap((s) => s.reference);
  const complete = isComplete(work) && samples.length > 0;
  const { retriever, k, ...rest } = head;
  const ci = (key: 'recall' | 'cover' | 'rp' | 'overall') =>
    bootstrapInOrder(
      scored.map((s) => ({ order: s.order, value: s[key] })),
      opts,
    )?.ci ?? null;
  const intervals = Object.fromEntries(
    (['overall', 'recall', 'cover', 'rp'] as const).flatMap((key) => {
      const c = ci(key);
      return c ? [[key, c]] : [];
    }),
  );
  return {
    ...rest,
    samples: samples.length,
    work,
    status: samples.length === 0 && isComplete(work) ? 'no samples' : describeWork(work),
    persphere: complete
      ? {
          retriever,
          k,
          recall: mean(scored.map((s) => s.recall)),
          cover: mean(scored.map((s) => s.cover)),
          overall: mean(scored.map((s) => s.overall)),
          rp: mean(scored.map((s) => s.rp)),
          stanceF1: stance.length
            ? 100 *
              macroF1(
                stance.map((l) => l.gold),
                stance.map((l) => l.predicted),
              )
            : null,
          referenceF1: reference.length
            ? 100 *
              macroF1(
                reference.map((l) => l.gold),
                reference.map((l) => l.predicted),
              )
            : null,
        }
      : null,
    ci95: complete ? intervals : {},
    retrievalWarnings,
  };
}
