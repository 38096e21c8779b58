import { Option } from 'commander';

// A significance level in (0, 1), e.g. `--alpha 0.01`; anything else stops with one line.
export function parseAlpha(raw: string): number {
  const n = /^\d*\.?\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!(n > 0 && n < 1)) throw new Error(`--alpha: expected a number in (0, 1), got "${raw}"`);
  return n;
}

// `--alpha <p>` of the commands that print a run's leaderboards.
export const alphaOption = () =>
  new Option(
    '--alpha <p>',
    "leaderboard ranks: significance level after Holm's correction (default: the spec's bootstrap.alpha, else 0.05)",
  ).argParser(parseAlpha);
