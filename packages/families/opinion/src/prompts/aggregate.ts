import { OutputParseError } from '@precis/prompts';
import { parseScore } from './score.parser.js';

export interface SampleAggregate {
  // Samples received.
  n: number;
  // Mean of the parsed scores (= sum over s of p(s) * s with p the empirical distribution);
  // null when no sample parsed: an explicit failure, never a default score.
  score: number | null;
  parsed: number[];
  unparsed: number;
  // Parsed score -> how many samples gave it, keyed by the score as a string ("3", "4.5").
  distribution: Record<string, number>;
  // The parse error messages of the unparsed samples, in sample order.
  errors: string[];
}

// n-sample scoring (METHODS.md §4.2): parse every sample, average the parsed ones, report how
// many failed. With n = 1 this is a plain score.
export function aggregateScoreSamples(
  outputs: readonly string[],
  parse: (output: string) => number = (o) => parseScore(o),
): SampleAggregate {
  const parsed: number[] = [];
  const errors: string[] = [];
  const distribution: Record<string, number> = {};
  for (const output of outputs) {
    let value: number;
    try {
      value = parse(output);
    } catch (err) {
      if (!(err instanceof OutputParseError)) throw err;
      errors.push(err.message);
      continue;
    }
    parsed.push(value);
    const key = String(value);
    distribution[key] = (distribution[key] ?? 0) + 1;
  }
  const score = parsed.length > 0 ? parsed.reduce((s, v) => s + v, 0) / parsed.length : null;
  return { n: outputs.length, score, parsed, unparsed: outputs.length - parsed.length, distribution, errors };
}
