import { type BootstrapOptions, bootstrapMean } from '@precis/metrics';

// BooookScore helpers (METHODS.md §1.6). Verdicts come from a judge or from published annotations.

export interface SentenceVerdict {
  confusing: boolean;
  // Confusion types given for this sentence (canonical names; normalization is the caller's job).
  types?: readonly string[];
}

export interface SummaryBooookScore {
  // Share of sentences without confusion; NaN for a summary with no sentences.
  score: number;
  sentences: number;
  confusingSentences: number;
  // Sentences carrying each type (a type repeated within one sentence counts once).
  typeCounts: Record<string, number>;
}

export function booookScoreForSummary(verdicts: readonly SentenceVerdict[]): SummaryBooookScore {
  const typeCounts: Record<string, number> = {};
  let confusing = 0;
  for (const v of verdicts) {
    if (!v.confusing) continue;
    confusing++;
    for (const t of new Set(v.types ?? [])) typeCounts[t] = (typeCounts[t] ?? 0) + 1;
  }
  const n = verdicts.length;
  return {
    score: n === 0 ? Number.NaN : (n - confusing) / n,
    sentences: n,
    confusingSentences: confusing,
    typeCounts,
  };
}

export interface SystemBooookScore {
  mean: number;
  bootstrapStd: number;
  ci: [number, number];
  summaries: number;
  // Indices of summaries with no sentences; they are excluded from the mean.
  emptySummaries: number[];
  // Occurrences of each type / total sentences over all summaries.
  errorTypeDistribution: Record<string, number>;
}

export interface SystemBooookScoreOptions extends BootstrapOptions {
  // Types that always appear in the distribution (zero when unseen), e.g. the eight canonical ones.
  knownTypes?: readonly string[];
}

export function systemBooookScore(
  summaries: readonly SummaryBooookScore[],
  options: SystemBooookScoreOptions = {},
): SystemBooookScore {
  const emptySummaries: number[] = [];
  const scores: number[] = [];
  let totalSentences = 0;
  const totals: Record<string, number> = {};
  for (const t of options.knownTypes ?? []) totals[t] = 0;
  summaries.forEach((s, i) => {
    if (s.sentences === 0) {
      emptySummaries.push(i);
      return;
    }
    scores.push(s.score);
    totalSentences += s.sentences;
    for (const [t, c] of Object.entries(s.typeCounts)) totals[t] = (totals[t] ?? 0) + c;
  });
  const errorTypeDistribution = Object.fromEntries(
    Object.entries(totals).map(([t, c]) => [t, totalSentences > 0 ? c / totalSentences : 0]),
  );
  if (scores.length === 0) {
    return {
      mean: Number.NaN,
      bootstrapStd: Number.NaN,
      ci: [Number.NaN, Number.NaN],
      summaries: 0,
      emptySummaries,
      errorTypeDistribution,
    };
  }
  const boot = bootstrapMean(scores, options);
  return {
    mean: boot.mean,
    bootstrapStd: boot.std,
    ci: boot.ci,
    summaries: scores.length,
    emptySummaries,
    errorTypeDistribution,
  };
}

export interface AnnotationEntry {
  questions?: string | readonly string[];
  types?: readonly string[];
}

export interface AnnotatedVerdicts {
  verdicts: SentenceVerdict[];
  // Annotated sentences that match no sentence of the summary (reported, never dropped silently).
  unmatched: string[];
}

// Whitespace, quote and dash differences do not stop a match.
export function normalizeSentence(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201a\u201b\u2032`´]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033«»]/g, '"')
    .replace(/[\u2013\u2014\u2212]/g, '-')
    .replace(/\u2026/g, '...')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

function wordSet(s: string): Set<string> {
  return new Set(s.split(/[^a-z0-9']+/).filter(Boolean));
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  const union = a.size + b.size - inter;
  return union === 0 ? 0 : inter / union;
}

// Finds the summary sentence an annotation refers to: exact (normalized) match, else the
// sentence that contains it or that it contains, else a near match (word Jaccard >= 0.8).
export function matchSentence(annotated: string, sentences: readonly string[]): number {
  const a = normalizeSentence(annotated);
  const norm = sentences.map(normalizeSentence);
  let i = norm.indexOf(a);
  if (i !== -1) return i;
  i = norm.findIndex(
    (s) =>
      a.length >= 12 &&
      (s.includes(a) || a.includes(s)) &&
      Math.min(s.length, a.length) / Math.max(s.length, a.length) >= 0.5,
  );
  if (i !== -1) return i;
  const aw = wordSet(a);
  let best = -1;
  let bestScore = 0.8;
  norm.forEach((s, k) => {
    const score = jaccard(aw, wordSet(s));
    if (score >= bestScore) {
      best = k;
      bestScore = score;
    }
  });
  return best;
}

// Published annotations list only confusing sentences, keyed by sentence text; every other
// sentence counts as "no confusion". Each annotation is matched with matchSentence; two that
// match one sentence make one confusing sentence carrying both sets of types.
export function verdictsFromAnnotations(
  sentences: readonly string[],
  annotations: Readonly<Record<string, AnnotationEntry>> | null | undefined,
): AnnotatedVerdicts {
  const verdicts: SentenceVerdict[] = sentences.map(() => ({ confusing: false }));
  const unmatched: string[] = [];
  for (const [text, entry] of Object.entries(annotations ?? {})) {
    const k = matchSentence(text, sentences);
    if (k === -1) {
      unmatched.push(text);
      continue;
    }
    verdicts[k] = {
      confusing: true,
      types: [...new Set([...(verdicts[k]!.types ?? []), ...(entry.types ?? [])])],
    };
  }
  return { verdicts, unmatched };
}
