import { extractJsonObject, OutputParseError } from '@precis/prompts';

export type KgdsPattern = 'ebs-aos' | 'abs-aos';
export const KGDS_ERROR_TYPES = ['OFI', 'OSD', 'IRU', 'IRIC', 'OM'] as const;
export type KgdsErrorType = (typeof KGDS_ERROR_TYPES)[number];

export interface KgdsSummaryAnswer {
  // EBS-AOS: the predicted indices that are article paragraphs (B), in the order given.
  ebs?: number[];
  // Indices the model gave that are not paragraphs of the article (left out of B, flagged).
  outsideArticle?: number[];
  // ABS-AOS: the background summary.
  abs?: string;
  aos: string;
}

function text(templateId: string, obj: Record<string, unknown>, key: string, output: string): string {
  const v = obj[key];
  if (typeof v !== 'string' || v.trim() === '')
    throw new OutputParseError(templateId, `"${key}" must be a non-empty string`, output);
  return v.trim();
}

// The summary JSON of either pattern. Indices must be JSON integers (not "3"); those outside the
// article are kept apart; a duplicate counts once.
export function parseKgdsSummary(
  output: string,
  pattern: KgdsPattern,
  articleIndices: readonly number[],
  templateId = `kgds.summary.${pattern}`,
): KgdsSummaryAnswer {
  const obj = extractJsonObject(templateId, output);
  const aos = text(templateId, obj, 'opinion_summary', output);
  if (pattern === 'abs-aos') return { abs: text(templateId, obj, 'background_summary', output), aos };
  const raw = obj.background_paragraphs;
  if (!Array.isArray(raw))
    throw new OutputParseError(templateId, '"background_paragraphs" must be an array of integers', output);
  const article = new Set(articleIndices);
  const ebs: number[] = [];
  const outsideArticle: number[] = [];
  for (const [i, v] of raw.entries()) {
    if (typeof v !== 'number' || !Number.isInteger(v))
      throw new OutputParseError(
        templateId,
        `background_paragraphs[${i}] is ${JSON.stringify(v)}, not an integer paragraph index`,
        output,
      );
    const into = article.has(v) ? ebs : outsideArticle;
    if (!into.includes(v)) into.push(v);
  }
  return { ebs, outsideArticle, aos };
}

// Lines "<n>. <answer>" (also "<n>: ", "<n>) "), exactly one per number 1..count, in any order.
function numberedLines(output: string, count: number, templateId: string): Map<number, string> {
  const answers = new Map<number, string>();
  for (const line of output.split('\n')) {
    const m = line.trim().match(/^\**(\d+)\**\s*[.:)]\s*(.+)$/);
    if (!m) continue;
    const n = Number(m[1]);
    if (n < 1 || n > count)
      throw new OutputParseError(templateId, `answer numbered ${n}, but there are ${count} items`, output);
    if (answers.has(n)) throw new OutputParseError(templateId, `item ${n} answered twice`, output);
    answers.set(
      n,
      m[2]!
        .trim()
        .replace(/[*.]+$/, '')
        .trim(),
    );
  }
  if (answers.size !== count)
    throw new OutputParseError(templateId, `${answers.size} numbered answers for ${count} items`, output);
  return answers;
}

// One yes/no per numbered item; the count must match.
export function parseNumberedVerdicts(output: string, count: number, templateId: string): boolean[] {
  const answers = numberedLines(output, count, templateId);
  return [...Array(count).keys()].map((i) => {
    const a = answers.get(i + 1)!.toLowerCase();
    if (a === 'yes') return true;
    if (a === 'no') return false;
    throw new OutputParseError(templateId, `item ${i + 1}: expected yes or no, got "${a}"`, output);
  });
}

// One error type per numbered item; the count must match.
export function parseNumberedErrorTypes(output: string, count: number, templateId: string): KgdsErrorType[] {
  const answers = numberedLines(output, count, templateId);
  return [...Array(count).keys()].map((i) => {
    const a = answers
      .get(i + 1)!
      .toUpperCase()
      .split(/[\s(:-]/)[0]!;
    if ((KGDS_ERROR_TYPES as readonly string[]).includes(a)) return a as KgdsErrorType;
    throw new OutputParseError(
      templateId,
      `item ${i + 1}: expected one of ${KGDS_ERROR_TYPES.join(', ')}, got "${answers.get(i + 1)}"`,
      output,
    );
  });
}

// {"better": "A"} or {"better": "B"}.
export function parseFeedbackChoice(output: string, templateId = 'kgds.verify.feedback'): 'A' | 'B' {
  const obj = extractJsonObject(templateId, output);
  const v = typeof obj.better === 'string' ? obj.better.trim().toUpperCase() : obj.better;
  if (v === 'A' || v === 'B') return v;
  throw new OutputParseError(
    templateId,
    `"better" must be "A" or "B", got ${JSON.stringify(obj.better)}`,
    output,
  );
}
