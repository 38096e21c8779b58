import type { CorrelationLevel, LeaderboardFormat } from '@precis/meta';

export function parseLevel(value: string): CorrelationLevel {
  if (value === 'summary' || value === 'system') return value;
  throw new Error(`--level "${value}" is not a level: use summary or system`);
}

export function parseGroups(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < 2) {
    throw new Error(`--groups "${value}" must be an integer of at least 2 (the paper uses 10)`);
  }
  return n;
}

export function parseMethod(value: string): 'spearman' | 'kendall' | 'pearson' {
  if (value === 'spearman' || value === 'kendall' || value === 'pearson') return value;
  throw new Error(`--method "${value}" must be spearman, kendall or pearson`);
}

const FORMATS: LeaderboardFormat[] = ['text', 'md', 'csv', 'json', 'html'];

export function parseFormat(value: string): LeaderboardFormat {
  if ((FORMATS as string[]).includes(value)) return value as LeaderboardFormat;
  throw new Error(`--format "${value}" must be one of ${FORMATS.join(', ')}`);
}

// `--ci` alone: 1000 resamples; `--ci 200`: 200.
export function parseBootstrap(
  ci: boolean | string | undefined,
  seed: string,
): { resamples: number; seed: number } | undefined {
  if (ci === undefined || ci === false) return undefined;
  const resamples = ci === true ? 1000 : Number(ci);
  if (!Number.isInteger(resamples) || resamples < 10) {
    throw new Error(`--ci "${String(ci)}" must be a number of resamples of at least 10`);
  }
  const s = Number(seed);
  if (!Number.isInteger(s)) throw new Error(`--seed "${seed}" must be an integer`);
  return { resamples, seed: s };
}
