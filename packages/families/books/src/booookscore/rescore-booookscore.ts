import { readErrorReason, readLocalText } from '@precis/files';
import { splitSentences } from '@precis/text';
import { booookScoreForSummary, systemBooookScore, verdictsFromAnnotations } from '../metrics/booookscore.js';
import { CONFUSION_TYPES, normalizeConfusionType } from '../prompts/confusion-types.js';

// Scores, std and error-type shares in percent, as a run's BooookScore reports them.
export interface RescoreResult {
  systemScore: number;
  bootstrapStd: number;
  summaries: { id: string; sentences: number; confusing: number; score: number | null }[];
  unannotated: string[];
  errorTypesPct: Record<string, number>;
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
    // Type names are checked first: an unknown type is an input error, never dropped.
    const entries = Object.fromEntries(
      Object.entries(annotations[id] ?? {}).map(([sentence, a]) => [
        sentence,
        {
          types: (Array.isArray(a?.types) ? a.types : []).map((t) => {
            const type = typeof t === 'string' ? normalizeConfusionType(t) : null;
            if (!type)
              throw new RescoreInputError(
                `annotations for ${id}: unknown confusion type ${JSON.stringify(t)} (allowed: ${CONFUSION_TYPES.join(', ')})`,
              );
            return type;
          }),
        },
      ]),
    );
    const { verdicts, unmatched: missed } = verdictsFromAnnotations(sentences, entries);
    for (const sentence of missed) unmatched.push({ id, sentence });
    return booookScoreForSummary(verdicts);
  });
  const system = systemBooookScore(perSummary, {
    resamples: opts.resamples ?? 1000,
    seed: opts.seed ?? 1,
    knownTypes: CONFUSION_TYPES,
  });
  return {
    systemScore: 100 * system.mean,
    bootstrapStd: 100 * system.bootstrapStd,
    summaries: ids.map((id, i) => ({
      id,
      sentences: perSummary[i]!.sentences,
      confusing: perSummary[i]!.confusingSentences,
      // null for a summary without sentences: it is left out of the system score.
      score: perSummary[i]!.sentences === 0 ? null : 100 * perSummary[i]!.score,
    })),
    unannotated: ids.filter((id) => !(id in annotations)),
    errorTypesPct: Object.fromEntries(
      Object.entries(system.errorTypeDistribution).map(([t, share]) => [t, 100 * share]),
    ),
    unmatchedAnnotations: unmatched,
    unknownIds: Object.keys(annotations).filter((id) => !(id in summaries)),
    producedBy: 'BooookScore from existing annotations (no judge called)',
  };
}

function readJsonObject(path: string, what: string): Record<string, unknown> {
  let text: string;
  try {
    text = readLocalText(path);
  } catch (err) {
    throw new RescoreInputError(`${path}: cannot read the ${what} file (${readErrorReason(err)})`);
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
