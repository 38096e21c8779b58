import { bootstrapInOrder, describeWork, isComplete, type RowWork } from '@precis/engine/family';
import {
  macroAverage,
  OPINION_ERROR_TYPES,
  type OpinionErrorType,
  opGeometricMean,
  opinionErrorDistribution,
} from '../metrics/kgds.js';
import type { KgdsPattern } from '../prompts/kgds.parsers.js';
import type { SampleScores } from './sample-scores.js';

type Prf = { precision: number; recall: number; f1: number };

// The KGDS numbers of a leaderboard row, in percent (macro averages over the system's samples).
export interface KgdsNumbers {
  pattern: KgdsPattern;
  bsp: Prf | null;
  paragraphRatio: number | null;
  kbsaf: Prf | null;
  caoRecall: number;
  opGm: number;
  errorTypes: Record<OpinionErrorType, number>;
  feedbackGoldWinRate: number | null;
}

export interface KgdsRow {
  system: string;
  summarizer: string;
  metric: string;
  // Who verified: 'model:<m>' or the offline verifier, marked (heuristic).
  judge: string;
  pattern: KgdsPattern;
  samples: number;
  work: RowWork;
  status: string;
  // Null unless the row's work is complete (never numbers over only what survived).
  kgds: KgdsNumbers | null;
  // 95% bootstrap CIs (percent) of the macro averages.
  ci95: Record<string, [number, number]>;
  // Opinions the summaries missed, classified (OFI/OSD/IRU/IRIC/OM), over all samples.
  errorsClassified: number;
  // Samples with a 0/0 ratio, counted as 0: which document, which ratios.
  zeroDivision: { document: string; ratios: string[] }[];
}

export interface ScoredSample {
  order: number;
  document: string;
  scores: SampleScores;
}

const pct = (x: number) => 100 * x;

function prfMeans(samples: readonly ScoredSample[], pick: (s: SampleScores) => Prf | null): Prf | null {
  const xs = samples.map((s) => pick(s.scores)).filter((x): x is Prf => x !== null);
  if (xs.length === 0) return null;
  const m = (k: keyof Prf) => pct(macroAverage(xs.map((x) => x[k])));
  return { precision: m('precision'), recall: m('recall'), f1: m('f1') };
}

function ci(
  samples: readonly ScoredSample[],
  value: (s: SampleScores) => number | null,
  opts: { resamples: number; seed: number | string },
) {
  const values = samples.flatMap((s) => {
    const v = value(s.scores);
    return v === null ? [] : [{ order: s.order, value: pct(v) }];
  });
  return bootstrapInOrder(values, opts)?.ci ?? null;
}

// A system's row from its scored samples (METHODS.md §2.3): macro averages, OP_GM from them, the
// pooled error-type shares, the gold win rate of the feedback judgments, bootstrap CIs.
export function kgdsRow(
  head: { system: string; summarizer: string; metric: string; judge: string; pattern: KgdsPattern },
  samples: readonly ScoredSample[],
  work: RowWork,
  opts: { resamples: number; seed: number | string },
): KgdsRow {
  const bsp = prfMeans(samples, (s) => s.bsp);
  const kbsaf = prfMeans(samples, (s) => s.kbsaf);
  const ratios = samples.flatMap((s) => (s.scores.paragraphRatio === null ? [] : [s.scores.paragraphRatio]));
  const caoRecall = samples.length ? pct(macroAverage(samples.map((s) => s.scores.caoRecall))) : 0;
  const background = head.pattern === 'ebs-aos' ? bsp : kbsaf;
  const errors = samples.flatMap((s) => s.scores.errors);
  const feedback = samples.flatMap((s) => (s.scores.goldWins === null ? [] : [s.scores.goldWins]));
  const numbers: KgdsNumbers = {
    pattern: head.pattern,
    bsp,
    paragraphRatio: ratios.length ? pct(macroAverage(ratios)) : null,
    kbsaf,
    caoRecall,
    opGm: pct(opGeometricMean((background?.f1 ?? 0) / 100, caoRecall / 100)),
    errorTypes: Object.fromEntries(
      Object.entries(opinionErrorDistribution(errors)).map(([t, share]) => [t, pct(share)]),
    ) as Record<OpinionErrorType, number>,
    feedbackGoldWinRate: feedback.length ? pct(feedback.filter(Boolean).length / feedback.length) : null,
  };
  const intervals: Record<string, [number, number] | null> = {
    bspF1: ci(samples, (s) => s.bsp?.f1 ?? null, opts),
    kbsafF1: ci(samples, (s) => s.kbsaf?.f1 ?? null, opts),
    caoRecall: ci(samples, (s) => s.caoRecall, opts),
    paragraphRatio: ci(samples, (s) => s.paragraphRatio, opts),
  };
  const complete = isComplete(work) && samples.length > 0;
  return {
    ...head,
    samples: samples.length,
    work,
    status: samples.length === 0 && isComplete(work) ? 'no samples' : describeWork(work),
    kgds: complete ? numbers : null,
    ci95: complete
      ? (Object.fromEntries(Object.entries(intervals).filter(([, v]) => v !== null)) as Record<
          string,
          [number, number]
        >)
      : {},
    errorsClassified: errors.length,
    zeroDivision: samples
      .filter((s) => s.scores.zeroDivision.length)
      .map((s) => ({ document: s.document, ratios: s.scores.zeroDivision })),
  };
}

export { OPINION_ERROR_TYPES };
