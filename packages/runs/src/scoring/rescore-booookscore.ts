import { readFileSync } from 'node:fs';
import { booookScoreForSummary, type SentenceVerdict, systemBooookScore } from '@precis/metrics';
import { CONFUSION_TYPES, normalizeConfusionType } from '@precis/prompts';
import { splitSentences } from '@precis/text';

export interface RescoreResult {
  systemScore: number;
  bootstrapStd: number;
  summaries: { id: string; sentences: number; confusing: number; score: number | null }[];
  unannotated: string[];
  errorTypes: Record<string, number>;
  // Annotated sentences that match no sentence of their summary: reported, never ignored.
  unmatchedAnnotations: { id: string; sentence: string }[];
  // Annotations for ids that are not in the summaries file.
  unknownIds: string[];
  // How it was computed (no judge was called).
  producedBy: string;
}

export class RescoreInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RescoreInputError';
  }
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
export function matchSentence(annotated: string, sentences: string[]): number {
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

type Annotation = { questions?: unknown; types?: unknown };

export function rescoreBooookScore(
  summaries: Record<string, { summary: string }>,
  annotations: Record<string, Record<string, Annotation> | null>,
  opts: { resamples?: number; seed?: number } = {},
): RescoreResult {
  const ids = Object.keys(summaries);
  if (ids.length === 0) throw new RescoreInputError('the summaries file holds no summaries');
  const unmatched: RescoreResult['unmatchedAnnotations'] = [];
  const perSummary = ids.map((id) => {
    const sentences = splitSentences(summaries[id]!.summary);
    const verdicts: SentenceVerdict[] = sentences.map(() => ({ confusing: false }));
    for (const [sentence, a] of Object.entries(annotations[id] ?? {})) {
      const k = matchSentence(sentence, sentences);
      if (k === -1) {
        unmatched.push({ id, sentence });
        continue;
      }
      const types = (Array.isArray(a?.types) ? a.types : []).map((t) => {
        const type = typeof t === 'string' ? normalizeConfusionType(t) : null;
        if (!type)
          throw new RescoreInputError(
            `annotations for ${id}: unknown confusion type ${JSON.stringify(t)} (allowed: ${CONFUSION_TYPES.join(', ')})`,
          );
        return type;
      });
      // Two annotations matching one sentence still make one confusing sentence.
      verdicts[k] = { confusing: true, types: [...new Set([...(verdicts[k]!.types ?? []), ...types])] };
    }
    return booookScoreForSummary(verdicts);
  });
  const system = systemBooookScore(perSummary, {
    resamples: opts.resamples ?? 1000,
    seed: opts.seed ?? 1,
    knownTypes: CONFUSION_TYPES,
  });
  return {
    systemScore: system.mean,
    bootstrapStd: system.bootstrapStd,
    summaries: ids.map((id, i) => ({
      id,
      sentences: perSummary[i]!.sentences,
      confusing: perSummary[i]!.confusingSentences,
      // null for a summary without sentences: it is left out of the system score.
      score: perSummary[i]!.sentences === 0 ? null : perSummary[i]!.score,
    })),
    unannotated: ids.filter((id) => !(id in annotations)),
    errorTypes: system.errorTypeDistribution,
    unmatchedAnnotations: unmatched,
    unknownIds: Object.keys(annotations).filter((id) => !(id in summaries)),
    producedBy: 'BooookScore from existing annotations (no judge called)',
  };
}

function readJsonObject(path: string, what: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new RescoreInputError(
      `${path}: cannot read the ${what} file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new RescoreInputError(`${path}: the ${what} file is not valid JSON (${(err as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RescoreInputError(`${path}: the ${what} file must be a JSON object keyed by summary id`);
  }
  return value as Record<string, unknown>;
}

export function rescoreBooookScoreFiles(
  summariesPath: string,
  annotationsPath: string,
  opts: { resamples?: number; seed?: number } = {},
) {
  const rawSummaries = readJsonObject(summariesPath, 'summaries');
  const summaries: Record<string, { summary: string }> = {};
  for (const [id, v] of Object.entries(rawSummaries)) {
    const summary = (v as { summary?: unknown } | null)?.summary;
    if (typeof summary !== 'string')
      throw new RescoreInputError(`${summariesPath}: ${id}.summary: expected a string`);
    summaries[id] = { summary };
  }
  const rawAnnotations = readJsonObject(annotationsPath, 'annotations');
  for (const [id, v] of Object.entries(rawAnnotations)) {
    if (v !== null && (typeof v !== 'object' || Array.isArray(v))) {
      throw new RescoreInputError(
        `${annotationsPath}: ${id}: expected an object of sentence -> {questions, types}, or null`,
      );
    }
  }
  return rescoreBooookScore(
    summaries,
    rawAnnotations as Record<string, Record<string, Annotation> | null>,
    opts,
  );
}
