import type { DataSource } from 'typeorm';
import {
  type CorrelationBootstrap,
  type CorrelationLevel,
  type CorrelationReport,
  correlateWithHumans,
  isRougeMetric,
} from './correlate.js';
import { MetaInputError } from './errors.js';
import { loadJudgeScores } from './judge-scores.js';
import { type HumanLeaderboard, humanLeaderboard, type LeaderboardJudge } from './leaderboard.js';
import { ROUGE_METRICS, type RougeMetricName, rougeScores } from './metric-scores.js';
import { loadOpinionDataset, SUMMEVAL_OP_HUMAN_SYSTEM } from './opinion-dataset.js';

// A metric argument: a ROUGE variant or judge scores of a run (judge:<run id or name>).
export type MetricArg = { kind: 'rouge'; metric: RougeMetricName } | { kind: 'judge'; run: string };

export function parseMetricArg(value: string, option = '--metric'): MetricArg {
  const v = value.trim();
  if (isRougeMetric(v)) return { kind: 'rouge', metric: v };
  if (v.startsWith('judge:') && v.length > 'judge:'.length)
    return { kind: 'judge', run: v.slice('judge:'.length) };
  throw new MetaInputError(
    `${option} "${value}" is not a metric: use ${ROUGE_METRICS.join(', ')} or judge:<run id or name>`,
  );
}

// What `precis meta correlate|leaderboard` read from a database, as one serializable request:
// run here or by a gateway (`--remote`, GetMetaReport), rendered by the CLI either way.
export type MetaQuery =
  | {
      command: 'correlate';
      dataset: string;
      metric: string;
      reference?: string;
      level: CorrelationLevel;
      stem: boolean;
      bootstrap?: CorrelationBootstrap;
    }
  | { command: 'leaderboard'; dataset: string; judges: string[]; reference?: string };

export type MetaResult = CorrelationReport | HumanLeaderboard;

async function leaderboard(ds: DataSource, q: Extract<MetaQuery, { command: 'leaderboard' }>) {
  const data = await loadOpinionDataset(ds, q.dataset);
  const judges: LeaderboardJudge[] = [];
  for (const label of q.judges) {
    const arg = parseMetricArg(label, '--judge');
    const scores =
      arg.kind === 'rouge'
        ? rougeScores(data.products, arg.metric, { reference: q.reference ?? SUMMEVAL_OP_HUMAN_SYSTEM })
        : await loadJudgeScores(ds, arg.run, data.products);
    judges.push({ label, scores });
  }
  return humanLeaderboard(data.name, data.products, judges);
}

// What a query's arguments must satisfy, checked before any database is opened.
export function checkMetaQuery(q: MetaQuery): void {
  if (q.command === 'leaderboard') {
    for (const j of q.judges) parseMetricArg(j, '--judge');
    return;
  }
  if (parseMetricArg(q.metric).kind === 'judge' && q.reference)
    throw new MetaInputError('--reference applies to ROUGE only; judge scores are reference-free');
}

export async function runMetaQuery(ds: DataSource, q: MetaQuery): Promise<MetaResult> {
  checkMetaQuery(q);
  if (q.command === 'leaderboard') return leaderboard(ds, q);
  const metric = parseMetricArg(q.metric);
  return correlateWithHumans(ds, {
    dataset: q.dataset,
    metric: metric.kind === 'rouge' ? metric.metric : { judgeRun: metric.run },
    reference: q.reference,
    level: q.level,
    stem: q.stem,
    bootstrap: q.bootstrap,
  });
}

// A query as a gateway receives it (JSON from any client): its shape checked, naming the field.
export function parseMetaQuery(json: string): MetaQuery {
  let q: Record<string, unknown>;
  try {
    q = JSON.parse(json) as Record<string, unknown>;
  } catch (err) {
    throw new MetaInputError(`query_json is not JSON (${(err as Error).message})`);
  }
  const str = (field: string, optional = false) => {
    const v = q[field];
    if (v === undefined && optional) return undefined;
    if (typeof v !== 'string' || !v) throw new MetaInputError('must be a non-empty string', { field });
    return v;
  };
  const dataset = str('dataset')!;
  const reference = str('reference', true);
  if (q.command === 'leaderboard') {
    const judges = q.judges ?? [];
    if (!Array.isArray(judges) || judges.some((j) => typeof j !== 'string'))
      throw new MetaInputError('must be a list of strings', { field: 'judges' });
    return { command: 'leaderboard', dataset, judges: judges as string[], reference };
  }
  if (q.command !== 'correlate')
    throw new MetaInputError('must be correlate or leaderboard', { field: 'command' });
  if (q.level !== 'summary' && q.level !== 'system')
    throw new MetaInputError('must be summary or system', { field: 'level' });
  const b = q.bootstrap as CorrelationBootstrap | undefined;
  return {
    command: 'correlate',
    dataset,
    metric: str('metric')!,
    reference,
    level: q.level,
    stem: q.stem !== false,
    ...(b ? { bootstrap: { resamples: Number(b.resamples), seed: Number(b.seed) } } : {}),
  };
}
