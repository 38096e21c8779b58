import { extractJsonObject, OutputParseError } from '@precis/prompts';

export const GOR_CRITERIA = ['comprehensiveness', 'diversity', 'empowerment', 'overall'] as const;
export type GorCriterion = (typeof GOR_CRITERIA)[number];
export type PairwiseVerdict = Record<GorCriterion, 1 | 2>;

// Exactly one "Question: <text>" line; the text must end in "?".
export function parseSimulatedQuery(output: string, templateId = 'gor.simulate-query'): string {
  // Bold markers (**Question:**) are formatting, not content.
  const lines = output.split('\n').map((l) => l.replace(/\*/g, '').trim());
  const found = lines.filter((l) => /^question\s*:/i.test(l));
  if (found.length !== 1)
    throw new OutputParseError(templateId, `${found.length} "Question:" lines, expected exactly one`, output);
  const question = found[0]!.replace(/^question\s*:\s*/i, '').trim();
  if (!question.endsWith('?'))
    throw new OutputParseError(templateId, `"${question.slice(0, 60)}" is not a question`, output);
  return question;
}

// The four criteria's winners, each 1 or 2 (a number or "1"/"2"), nothing missing.
export function parsePairwiseVerdict(output: string, templateId = 'gor.judge.pairwise'): PairwiseVerdict {
  const obj = extractJsonObject(templateId, output);
  const verdict = {} as PairwiseVerdict;
  for (const c of GOR_CRITERIA) {
    const v = obj[c];
    const raw = v !== null && typeof v === 'object' ? (v as Record<string, unknown>).winner : v;
    const n = typeof raw === 'string' ? Number(raw.trim()) : raw;
    if (n !== 1 && n !== 2)
      throw new OutputParseError(
        templateId,
        `"${c}" must name answer 1 or 2, got ${JSON.stringify(raw ?? null)}`,
        output,
      );
    verdict[c] = n;
  }
  return verdict;
}

// A record's response or a summary: any non-empty text (trimmed); an empty reply is re-asked.
export function parseGorText(output: string, templateId: string): string {
  const text = output.trim();
  if (text === '') throw new OutputParseError(templateId, 'the reply is empty', output);
  return text;
}
