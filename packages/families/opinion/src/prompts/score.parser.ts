import { OutputParseError } from '@precis/prompts';

export interface ScoreParseOptions {
  // Recorded in the error so failures name the prompt that produced them.
  templateId?: string;
  // Our prompts ask for integers; decimals (e.g. 3.5) only when a custom template asks for them.
  allowDecimal?: boolean;
  min?: number;
  max?: number;
}

const SCORE_TAG = /<score>([\s\S]*?)<\/score>/gi;

// The answer must end with exactly one <score>N</score> (trailing whitespace allowed). Anything
// else (no tag, several tags, text after the tag, a value off the scale) is an OutputParseError.
export function parseScore(output: string, options: ScoreParseOptions = {}): number {
  const templateId = options.templateId ?? 'opinion.score';
  const min = options.min ?? 1;
  const max = options.max ?? 5;
  const tags = [...output.matchAll(SCORE_TAG)];
  if (tags.length === 0) {
    throw new OutputParseError(templateId, 'no <score>N</score> tag in the reply', output);
  }
  if (tags.length > 1) {
    throw new OutputParseError(
      templateId,
      `${tags.length} <score> tags in the reply; exactly one is allowed`,
      output,
    );
  }
  const tag = tags[0]!;
  const after = output.slice(tag.index! + tag[0].length);
  if (after.trim() !== '') {
    throw new OutputParseError(templateId, 'text after the closing </score> tag', output);
  }
  const raw = tag[1]!.trim();
  const pattern = options.allowDecimal ? /^\d+(?:\.\d+)?$/ : /^\d+$/;
  if (!pattern.test(raw)) {
    throw new OutputParseError(
      templateId,
      `score ${JSON.stringify(raw)} is not ${options.allowDecimal ? 'a number' : 'an integer'}`,
      output,
    );
  }
  const value = Number(raw);
  if (value < min || value > max) {
    throw new OutputParseError(templateId, `score ${value} is outside ${min}-${max}`, output);
  }
  return value;
}
