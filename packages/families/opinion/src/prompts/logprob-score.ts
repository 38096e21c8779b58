import { OutputParseError } from '@precis/prompts';

export interface TopLogprob {
  token: string;
  logprob: number;
}

export interface TokenWithTopLogprobs {
  token: string;
  top: readonly TopLogprob[];
}

export interface LogprobScore {
  // Sum over s in 1..5 of p(s) * s, with p renormalised over the valid score tokens.
  score: number;
  // Probability mass the valid score tokens had before renormalising (how sure the model was
  // that it was writing a score at all).
  validMass: number;
  probabilities: Record<'1' | '2' | '3' | '4' | '5', number>;
}

const SCORES = ['1', '2', '3', '4', '5'] as const;

// Logprob-weighted score from the alternatives at the score token position. Tokens that are a
// score digit up to surrounding whitespace count ("3", " 3"); their probabilities are summed
// per score. None of 1..5 among the alternatives is an explicit failure.
export function logprobWeightedScore(
  top: readonly TopLogprob[],
  templateId = 'opinion.logprob-score',
): LogprobScore {
  const mass: Record<string, number> = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  let total = 0;
  for (const alt of top) {
    const t = alt.token.trim();
    if (!(t in mass) || !Number.isFinite(alt.logprob)) continue;
    const p = Math.exp(alt.logprob);
    mass[t]! += p;
    total += p;
  }
  if (total === 0) {
    throw new OutputParseError(
      templateId,
      'none of the score tokens 1-5 is among the top logprobs at the score position',
      JSON.stringify(top.map((a) => a.token)),
    );
  }
  let score = 0;
  const probabilities = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  for (const s of SCORES) {
    probabilities[s] = mass[s]! / total;
    score += probabilities[s] * Number(s);
  }
  return { score, validMass: total, probabilities };
}

// The top logprobs at the score position: the first non-blank token after the last "<score>"
// in the generated text. When that token also carries the end of the tag (e.g. ">4"), the
// alternatives are stripped of the same prefix and those without it are dropped.
export function scoreTokenTopLogprobs(
  tokens: readonly TokenWithTopLogprobs[],
  templateId = 'opinion.logprob-score',
): TopLogprob[] {
  const text = tokens.map((t) => t.token).join('');
  const tag = text.toLowerCase().lastIndexOf('<score>');
  if (tag < 0) throw new OutputParseError(templateId, 'no <score> tag among the generated tokens', text);
  let target = tag + '<score>'.length;
  while (target < text.length && /\s/.test(text[target]!)) target++;
  if (target >= text.length) throw new OutputParseError(templateId, 'nothing after the <score> tag', text);
  let start = 0;
  for (const t of tokens) {
    const end = start + t.token.length;
    if (target < end) {
      const prefix = text.slice(start, target);
      if (prefix === '') return [...t.top];
      return t.top
        .filter((a) => a.token.startsWith(prefix))
        .map((a) => ({ token: a.token.slice(prefix.length), logprob: a.logprob }));
    }
    start = end;
  }
  throw new OutputParseError(templateId, 'score position not found among the tokens', text);
}
