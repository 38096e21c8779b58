import { type BootstrapOptions, bootstrapMean } from '../stats/bootstrap.js';

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

function normalizeSentence(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

// Published annotations list only confusing sentences, keyed by sentence text; every other
// sentence counts as "no confusion". Matching is exact after whitespace normalization.
export function verdictsFromAnnotations(
  sentences: readonly string[],
  annotations: Readonly<Record<string, AnnotationEntry>> | null | undefined,
): AnnotatedVerdicts {
  const byText = new Map<string, AnnotationEntry>();
  for (const [text, entry] of Object.entries(annotations ?? {})) byText.set(normalizeSentence(text), entry);
  const matched = new Set<string>();
  const verdicts = sentences.map((s): SentenceVerdict => {
    const key = normalizeSentence(s);
    const entry = byText.get(key);
    if (entry === undefined) return { confusing: false };
    matched.add(key);
    return { confusing: true, types: [...(entry.types ?? [])] };
  });
  const unmatched = Object.keys(annotations ?? {}).filter((t) => !matched.has(normalizeSentence(t)));
  return { verdicts, unmatched };
}
