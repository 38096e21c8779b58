import {
  bspScore,
  caoRecall,
  kbsafScore,
  type OpinionErrorType,
  type PrfScore,
  paragraphRetrievalRatio,
} from '../metrics/kgds.js';
import type { KgdsPattern } from '../prompts/kgds.parsers.js';
import type { KgdsSample } from '../sample.js';
import type { KgdsParts } from '../summary/summary-parts.js';
import type { FactVerdict } from '../verify/verify-tasks.js';

export interface OpinionVerdict {
  opinion: string;
  inferred: boolean;
  errorType?: OpinionErrorType;
}

// What the verify tasks of one summary produced (absent when that task did not finish done).
export interface SampleVerdicts {
  facts?: FactVerdict[];
  opinions?: OpinionVerdict[];
  feedback?: { sameAsGold: boolean; goldWins?: boolean };
}

// One sample's KGDS scores (fractions); `zeroDivision` names the ratios that were 0/0 (set to 0).
export interface SampleScores {
  pattern: KgdsPattern;
  bsp: PrfScore | null;
  paragraphRatio: number | null;
  kbsaf: PrfScore | null;
  caoRecall: number;
  errors: OpinionErrorType[];
  goldWins: boolean | null;
  zeroDivision: string[];
}

const zeroes = (name: string, s: PrfScore) =>
  (['precision', 'recall', 'f1'] as const).filter((k) => s.zeroDivision[k]).map((k) => `${name}.${k}`);

// METHODS.md §2.3 for one sample; null when a verdict it needs is missing.
export function scoreSample(sample: KgdsSample, parts: KgdsParts, v: SampleVerdicts): SampleScores | null {
  if (!v.opinions) return null;
  const zeroDivision: string[] = [];
  let bsp: PrfScore | null = null;
  let paragraphRatio: number | null = null;
  let kbsaf: PrfScore | null = null;
  if (parts.pattern === 'ebs-aos') {
    const predicted = parts.ebs ?? [];
    bsp = bspScore({ predicted, gold: sample.gold, article: sample.paragraphs.map((p) => p.index) });
    zeroDivision.push(...zeroes('bsp', bsp));
    paragraphRatio = paragraphRetrievalRatio(predicted, sample.paragraphs.length);
  } else {
    if (!v.facts) return null;
    kbsaf = kbsafScore(
      v.facts.filter((f) => f.key).map((f) => f.inferred),
      v.facts.filter((f) => !f.key).map((f) => f.inferred),
    );
    zeroDivision.push(...zeroes('kbsaf', kbsaf));
  }
  const cao = caoRecall(v.opinions.map((o) => o.inferred));
  if (cao.flagged) zeroDivision.push('caoRecall');
  return {
    pattern: parts.pattern,
    bsp,
    paragraphRatio,
    kbsaf,
    caoRecall: cao.recall,
    errors: v.opinions.flatMap((o) => (o.errorType ? [o.errorType] : [])),
    goldWins: v.feedback && !v.feedback.sameAsGold ? (v.feedback.goldWins ?? null) : null,
    zeroDivision,
  };
}
