import { extractJsonObject, OutputParseError } from '@precis/prompts';
import { CONFUSION_TYPES, type ConfusionType, normalizeConfusionType } from './confusion-types.js';

export interface SentenceVerdict {
  confusing: boolean;
  questions: string[];
  types: ConfusionType[];
}

function parseVerdict(templateId: string, value: unknown, where: string, output: string): SentenceVerdict {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new OutputParseError(templateId, `${where}: expected an object with "confusing"`, output);
  }
  const v = value as Record<string, unknown>;
  if (typeof v.confusing !== 'boolean') {
    throw new OutputParseError(templateId, `${where}: "confusing" must be true or false`, output);
  }
  if (!v.confusing) return { confusing: false, questions: [], types: [] };
  const rawTypes = Array.isArray(v.types) ? v.types : typeof v.types === 'string' ? [v.types] : null;
  if (!rawTypes || rawTypes.length === 0) {
    throw new OutputParseError(templateId, `${where}: a confusing sentence needs at least one type`, output);
  }
  const types: ConfusionType[] = [];
  for (const t of rawTypes) {
    const type = typeof t === 'string' ? normalizeConfusionType(t) : null;
    if (!type) {
      throw new OutputParseError(
        templateId,
        `${where}: unknown type ${JSON.stringify(t)} (allowed: ${CONFUSION_TYPES.join(', ')})`,
        output,
      );
    }
    if (!types.includes(type)) types.push(type);
  }
  const rawQuestions = Array.isArray(v.questions)
    ? v.questions
    : typeof v.questions === 'string'
      ? [v.questions]
      : [];
  const questions = rawQuestions
    .filter((q): q is string => typeof q === 'string' && q.trim() !== '')
    .map((q) => q.trim());
  if (questions.length === 0) {
    throw new OutputParseError(
      templateId,
      `${where}: a confusing sentence needs its clarifying question(s)`,
      output,
    );
  }
  return { confusing: true, questions, types };
}

export function parseSentenceAnnotation(
  output: string,
  templateId = 'booookscore.annotate-sentence',
): SentenceVerdict {
  return parseVerdict(templateId, extractJsonObject(templateId, output), 'answer', output);
}

// Verdicts for exactly the requested sentence numbers: a missing or extra number fails the parse.
export function parseBatchAnnotation(
  output: string,
  sentenceNumbers: number[],
  templateId = 'booookscore.annotate-batch',
): Map<number, SentenceVerdict> {
  const obj = extractJsonObject(templateId, output);
  const verdicts = new Map<number, SentenceVerdict>();
  for (const [key, value] of Object.entries(obj)) {
    const n = Number(key.replace(/^\D+/, ''));
    if (!Number.isInteger(n) || !sentenceNumbers.includes(n)) {
      throw new OutputParseError(
        templateId,
        `answer for sentence ${JSON.stringify(key)} that was not asked`,
        output,
      );
    }
    verdicts.set(n, parseVerdict(templateId, value, `sentence ${n}`, output));
  }
  const missing = sentenceNumbers.filter((n) => !verdicts.has(n));
  if (missing.length)
    throw new OutputParseError(templateId, `no answer for sentence(s) ${missing.join(', ')}`, output);
  return verdicts;
}
