import type { DataSource } from 'typeorm';
import { type CommandResult, log, type ServerView, type VariantResult } from './measure.js';

// Where a Precis run's time went, from its rows' own timestamps (epoch ms; PGlite and PostgreSQL
// both stamp rows with the machine clock, like the fake server's request log).
export interface RunPhases {
  runId: string;
  status: string;
  datasetCreated: number | null;
  runCreated: number;
  runFinished: number | null;
  verifyFirstCreated: number | null;
  verifyLastCreated: number | null;
  verifyFirstFinished: number | null;
  verifyLastFinished: number | null;
  scoreLastFinished: number | null;
  verifyTotal: number;
  verifyDone: number;
}

const ms = (col: string) => `(EXTRACT(EPOCH FROM ${col}) * 1000)::float8`;

// The last run of the database (the only one in a fresh one) unless `runId` names it.
export async function runPhases(db: DataSource, runId?: string): Promise<RunPhases> {
  const rows = (await db.query(
    `WITH r AS (SELECT * FROM runs ${runId ? 'WHERE id = $1' : ''} ORDER BY created_at DESC LIMIT 1)
     SELECT r.id AS "runId", r.status,
            (SELECT ${ms('min(d.created_at)')} FROM datasets d) AS "datasetCreated",
            ${ms('r.created_at')} AS "runCreated", ${ms('r.finished_at')} AS "runFinished",
            ${ms("min(t.created_at) FILTER (WHERE t.stage = 'verify')")} AS "verifyFirstCreated",
            ${ms("max(t.created_at) FILTER (WHERE t.stage = 'verify')")} AS "verifyLastCreated",
            ${ms("min(t.finished_at) FILTER (WHERE t.stage = 'verify')")} AS "verifyFirstFinished",
            ${ms("max(t.finished_at) FILTER (WHERE t.stage = 'verify')")} AS "verifyLastFinished",
            ${ms("max(t.finished_at) FILTER (WHERE t.stage = 'score')")} AS "scoreLastFinished",
            (count(t.id) FILTER (WHERE t.stage = 'verify'))::int AS "verifyTotal",
            (count(t.id) FILTER (WHERE t.stage = 'verify' AND t.status = 'done'))::int AS "verifyDone"
       FROM r LEFT JOIN tasks t ON t.run_id = r.id
      GROUP BY r.id, r.status, r.created_at, r.finished_at`,
    runId ? [runId] : [],
  )) as Record<string, unknown>[];
  const row = rows[0];
  if (!row) throw new Error(`no run${runId ? ` ${runId}` : ''} in the database`);
  const num = (k: string) => (row[k] === null || row[k] === undefined ? null : Number(row[k]));
  return {
    runId: String(row.runId),
    status: String(row.status),
    datasetCreated: num('datasetCreated'),
    runCreated: num('runCreated') ?? 0,
    runFinished: num('runFinished'),
    verifyFirstCreated: num('verifyFirstCreated'),
    verifyLastCreated: num('verifyLastCreated'),
    verifyFirstFinished: num('verifyFirstFinished'),
    verifyLastFinished: num('verifyLastFinished'),
    scoreLastFinished: num('scoreLastFinished'),
    verifyTotal: num('verifyTotal') ?? 0,
    verifyDone: num('verifyDone') ?? 0,
  };
}

// "dataset row 3.10, run row 4.02, ..." in s after `t0` (when the command started); `extra`
// points are epoch ms too.
export function describePhases(p: RunPhases, t0: number, extra: [string, number | null][] = []): string {
  const points: [string, number | null][] = [
    ['dataset row', p.datasetCreated],
    ['run row', p.runCreated],
    ['first verify task', p.verifyFirstCreated],
    ['last verify task', p.verifyLastCreated],
    ['first verify done', p.verifyFirstFinished],
    ['last verify done', p.verifyLastFinished],
    ['score done', p.scoreLastFinished],
    ['run finished', p.runFinished],
  ];
  return [...points, ...extra]
    .map(([k, v]): [string, number | null] => [k, v === null ? null : v - t0])
    .filter((e): e is [string, number] => e[1] !== null)
    .sort((a, b) => a[1] - b[1])
    .map(([k, v]) => `${k} ${(v / 1000).toFixed(2)}`)
    .join(', ');
}

// A Precis variant's figures: its timeline from the run's rows, the server's first call and last
// answer, and `marks` of its own (epoch ms), logged and returned with the phases.
export function precisVariant(
  label: string,
  res: CommandResult,
  server: ServerView,
  phases: RunPhases,
  marks: [string, number | null][],
  notes: string[],
): VariantResult & { phases: RunPhases; timeline: string } {
  const at = (ms: number | null) => (ms === null ? null : res.startedAt + ms);
  const timeline = describePhases(phases, res.startedAt, [
    ...marks,
    ['first judge call', at(server.firstCallMs)],
    ['last judge answer', at(server.lastAnswerMs)],
    ['exit', res.startedAt + res.wallMs],
  ]);
  log(`${label}: ${(res.wallMs / 1000).toFixed(2)} s; timeline (s after start): ${timeline}`);
  return {
    label,
    wallMs: res.wallMs,
    jobMs: phases.runFinished === null ? null : phases.runFinished - phases.runCreated,
    jobSource: 'run row created -> finished',
    server,
    parsed: `${phases.verifyDone}/${phases.verifyTotal}`,
    notes: [...notes, ...(phases.status === 'completed' ? [] : [`run ended ${phases.status}`])],
    phases,
    timeline,
  };
}
