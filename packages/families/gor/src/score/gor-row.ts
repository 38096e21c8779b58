import { bootstrapInOrder, describeWork, isComplete, type RowWork } from '@precis/engine/family';
import { GOR_CRITERIA } from '../prompts/gor.parsers.js';

export type Criterion = (typeof GOR_CRITERIA)[number];
const ROUGE_KEYS = ['rouge1', 'rouge2', 'rougeL'] as const;

export interface GorSample {
  order: number;
  documentId: string;
  // ROUGE F1 in percent, the best reference each.
  rouge: Record<(typeof ROUGE_KEYS)[number], number>;
}

export interface GorTraining {
  // The system's one model: the meetings' graphs it trained on, whether its weights came from an
  // earlier run with the same inputs, the mean loss of the first and last epoch, the training's
  // seconds and the inference time per meeting.
  graphs: number;
  reused: boolean;
  epochs: number;
  lossFirst: number;
  lossLast: number;
  seconds: number;
  inferenceMs: number;
}

export interface GorPairwise {
  baseline: string;
  judge: string;
  // Meetings judged (both orders each), and the system's win rate in percent per criterion.
  pairs: number;
  winRate: Record<Criterion, number> | null;
  failed: number;
}

export interface GorRow {
  system: string;
  summarizer: string;
  strategy: string;
  ranker: string;
  metric: string;
  judge: string;
  samples: number;
  work: RowWork;
  status: string;
  // Null unless every meeting was summarized and scored (never means over what survived).
  rouge: Record<(typeof ROUGE_KEYS)[number], number> | null;
  ci95: Record<string, [number, number]>;
  training: GorTraining | null;
  pairwise: GorPairwise[];
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export function gorRow(
  head: Pick<
    GorRow,
    'system' | 'summarizer' | 'strategy' | 'ranker' | 'metric' | 'judge' | 'training' | 'pairwise'
  >,
  samples: readonly GorSample[],
  work: RowWork,
  opts: { resamples: number; seed: number | string },
): GorRow {
  const complete = isComplete(work) && samples.length > 0;
  const ci95: Record<string, [number, number]> = {};
  if (complete)
    for (const key of ROUGE_KEYS) {
      const ci = bootstrapInOrder(
        samples.map((s) => ({ order: s.order, value: s.rouge[key] })),
        opts,
      )?.ci;
      if (ci) ci95[key] = ci;
    }
  return {
    ...head,
    samples: samples.length,
    work,
    status: samples.length === 0 && isComplete(work) ? 'no samples' : describeWork(work),
    rouge: complete
      ? {
          rouge1: mean(samples.map((s) => s.rouge.rouge1)),
          rouge2: mean(samples.map((s) => s.rouge.rouge2)),
          rougeL: mean(samples.map((s) => s.rouge.rougeL)),
        }
      : null,
    ci95,
  };
}

// Win rates over the judged meetings: each meeting's two orders count half each.
export function winRates(wins: readonly Record<Criterion, number>[]): Record<Criterion, number> | null {
  if (wins.length === 0) return null;
  return Object.fromEntries(
    GOR_CRITERIA.map((c) => [c, (100 * wins.reduce((a, w) => a + w[c], 0)) / wins.length]),
  ) as Record<Criterion, number>;
}
