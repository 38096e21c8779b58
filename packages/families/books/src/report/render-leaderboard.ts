import {
  type Board,
  boardBlock,
  errorRows,
  failedColumn,
  fixed,
  groupRows,
  isComplete,
  judgedBy,
  type Ranked,
  type RankedBoard,
  type ReportBlock,
  type ReportChart,
  type ReportColumn,
  type ReportFigure,
  type RunHeader,
} from '@precis/engine/family';
import type { LeaderboardRow, UsageTotals } from '../booookscore/leaderboard-row.js';

// A stored row with the metric_values key of its metric (`booookscore.<index>`): the board's id
// and the key of its per-document values.
export type BooksRow = LeaderboardRow & { metricKey: string };

export interface RunReport {
  run: RunHeader;
  leaderboard: BooksRow[];
  bootstrapResamples: number;
}

const pct = (x: number) => `${x.toFixed(1)}%`;
// A share as percent; null stays null.
const x100 = <T extends number | null>(x: T): T => (x === null ? x : 100 * x) as T;
const score = (x: number | null) => fixed(x100(x), 1);

// A leaderboard row with its place: null for a row left out of the ranking (its work is not
// complete, so it has no score).
export type RankedRow = Ranked<BooksRow>;

const count = (header: string, value: (r: RankedRow) => number): ReportColumn<RankedRow> => ({
  header,
  show: (r) => String(value(r)),
  csv: [{ header, value }],
});
const percent = (header: string, value: (r: RankedRow) => number): ReportColumn<RankedRow> => ({
  header,
  show: (r) => pct(value(r)),
  csv: [{ header: `${header} (%)`, value }],
});
// Tokens in and out, e.g. '5296 (4096 cached, 800 reasoning)': the shares only where a model
// reported them; CSV has each share in a column of its own.
const tokens = (who: string, usage: (r: RankedRow) => UsageTotals): ReportColumn<RankedRow> => {
  const total = (r: RankedRow) => usage(r).tokensIn + usage(r).tokensOut;
  const cached = (r: RankedRow) => usage(r).tokensCached ?? 0;
  const reasoning = (r: RankedRow) => usage(r).tokensReasoning ?? 0;
  return {
    header: `${who} tokens`,
    show: (r) => {
      const shares = [
        cached(r) ? `${cached(r)} cached` : '',
        reasoning(r) ? `${reasoning(r)} reasoning` : '',
      ];
      const said = shares.filter(Boolean).join(', ');
      return `${total(r)}${said ? ` (${said})` : ''}`;
    },
    csv: [
      { header: `${who} tokens`, value: total },
      { header: `${who} cached tokens`, value: cached },
      { header: `${who} reasoning tokens`, value: reasoning },
    ],
  };
};
const dollars = (header: string, value: (r: RankedRow) => number): ReportColumn<RankedRow> => ({
  header,
  show: (r) => `$${value(r).toFixed(4)}`,
  csv: [{ header: `${header} (USD)`, value }],
});

const COLUMNS: ReportColumn<RankedRow>[] = [
  { header: 'strategy', show: (r) => r.strategy },
  { header: 'summarizer', show: (r) => r.summarizer },
  {
    header: 'BooookScore',
    show: (r) => score(r.score),
    csv: [{ header: 'BooookScore', value: (r) => x100(r.score) }],
  },
  {
    header: '95% CI',
    show: (r) => (r.ci95 ? `${score(r.ci95[0])}–${score(r.ci95[1])}` : 'n/a'),
    csv: [
      { header: '95% CI low', value: (r) => x100(r.ci95?.[0] ?? null) },
      { header: '95% CI high', value: (r) => x100(r.ci95?.[1] ?? null) },
    ],
  },
  {
    header: 'bootstrap std',
    show: (r) => fixed(r.bootstrapStd === null ? null : 100 * r.bootstrapStd, 2),
    csv: [{ header: 'bootstrap std', value: (r) => x100(r.bootstrapStd) }],
  },
  count('summaries', (r) => r.summaries),
  failedColumn(),
  {
    header: 'length (tokens)',
    show: (r) => r.lengthTokens.toFixed(0),
    csv: [{ header: 'length (tokens)', value: (r) => r.lengthTokens }],
  },
  percent('novel 3-grams', (r) => r.novelTrigramsPct),
  percent('repeated 3-grams', (r) => r.repeatedTrigramsPct),
  tokens('summarizer', (r) => r.summarizerUsage),
  dollars('summarizer cost', (r) => r.summarizerUsage.costUsd),
  tokens('judge', (r) => r.judgeUsage),
  dollars('judge cost', (r) => r.judgeUsage.costUsd),
  { header: 'judge', show: (r) => r.judge },
  { header: 'status', show: (r) => r.status },
];

// The score a row shows: in percent, and only when its work is complete.
const rowScore = (r: LeaderboardRow) => (isComplete(r.work) ? x100(r.score) : null);

function errorTypeLine(r: LeaderboardRow): string {
  if (r.sentences === 0) return `${r.system}: no sentence judged (${r.status})`;
  const parts = Object.entries(r.errorTypes)
    .filter(([, share]) => share > 0)
    .map(([t, share]) => `${t} ${pct(100 * share)}`);
  const types = parts.length ? parts.join(', ') : 'no confusions found';
  return isComplete(r.work)
    ? `${r.system}: ${types} (per sentence, ${r.sentences} sentences)`
    : `${r.system}: ${types} in the ${r.sentences} judged sentences (${r.status})`;
}

// Each judge once; a judge none of whose judgments succeeded says so.
// A judge with its template version, as the note and the figure titles name it.
const judgeLabel = (r: LeaderboardRow) => `${r.judge}${r.judgeTemplate ? ` [${r.judgeTemplate}]` : ''}`;

function judgesNote(rows: readonly LeaderboardRow[]): string {
  const judges = new Map<string, { expected: number; failed: number }>();
  for (const r of rows) {
    const name = judgeLabel(r);
    const j = judges.get(name) ?? { expected: 0, failed: 0 };
    j.expected += r.work.judgments.expected;
    j.failed += r.work.judgments.failed;
    judges.set(name, j);
  }
  const parts = [...judges].map(([name, j]) => {
    if (j.expected === 0) return `${name} (nothing to judge: every summary failed)`;
    if (j.failed === j.expected) return `${name} (every judgment failed: ${j.failed} of ${j.expected})`;
    return j.failed ? `${name} (${j.failed} of ${j.expected} judgments failed)` : name;
  });
  return parts.length ? parts.join('; ') : 'none';
}

function note(rows: readonly LeaderboardRow[], resamples: number): string {
  return `BooookScore = share of summary sentences without a confusion, x100; CI and std from a ${resamples}-resample bootstrap of the system mean; a row whose summaries or judgments partly failed gets no score and no rank. Judge: ${judgesNote(rows)}.`;
}

const chart = (rows: readonly RankedRow[]): ReportChart => ({
  title: 'BooookScore',
  bars: rows.map((r) =>
    r.rank === null
      ? { label: r.system, share: null, display: r.status }
      : { label: r.system, share: r.score ?? 0, display: score(r.score) },
  ),
});

// The family's own fields of a row in the JSON report, numbers in the table's units (percent).
function fields(r: BooksRow): Record<string, unknown> {
  return {
    strategy: r.strategy,
    summarizer: r.summarizer,
    judge: r.judge,
    judgeTemplate: r.judgeTemplate,
    bootstrapStd: x100(r.bootstrapStd),
    summaries: r.summaries,
    sentences: r.sentences,
    errorTypesPct: Object.fromEntries(Object.entries(r.errorTypes).map(([t, share]) => [t, 100 * share])),
    lengthTokens: r.lengthTokens,
    novelTrigramsPct: r.novelTrigramsPct,
    repeatedTrigramsPct: r.repeatedTrigramsPct,
    summarizerUsage: r.summarizerUsage,
    judgeUsage: r.judgeUsage,
  };
}

// One leaderboard per BooookScore metric of the spec, ranked on its per-summary scores.
export function booookScoreBoards(report: RunReport): Board<BooksRow>[] {
  const groups = groupRows(report.leaderboard, (r) => r.metricKey);
  return groups.map((rows) => {
    const key = rows[0]!.metricKey;
    const judge = groups.length > 1 ? `, judge ${judgeLabel(rows[0]!)}` : '';
    return {
      key,
      family: 'books',
      metric: 'booookscore',
      label: key,
      title: `BooookScore (coherence)${judge}`,
      ranking: { metric: key, column: 'BooookScore' },
      rows,
      score: rowScore,
      ci95: (r) => (r.ci95 && isComplete(r.work) ? [x100(r.ci95[0]), x100(r.ci95[1])] : null),
      fields,
      columns: COLUMNS,
      notes: [note(rows, report.bootstrapResamples)],
      details: { bootstrapResamples: report.bootstrapResamples },
      chart,
    };
  });
}

// Each leaderboard with its bar chart and notes, then its systems' error types in its order.
export function booookScoreBlocks(report: RunReport, ranked: readonly RankedBoard[]): ReportBlock[] {
  return ranked.flatMap((b) => {
    const own = new Map(
      report.leaderboard.filter((r) => r.metricKey === b.board.key).map((r) => [r.system, r]),
    );
    const rows = b.rows.map((r) => own.get(r.system)!);
    return [
      boardBlock(b),
      { key: `${b.board.key}.error-types`, heading: 'Error types', list: rows.map(errorTypeLine) },
    ];
  });
}

// One figure per BooookScore metric: score and CI in percent, coherence errors by type.
export function booookScoreFigures(r: RunReport): ReportFigure[] {
  return [...new Set(r.leaderboard.map((x) => x.metric))].map((metric) => {
    const rows = r.leaderboard.filter((x) => x.metric === metric);
    return {
      key: metric,
      title: `${/^booookscore$/i.test(metric) ? 'BooookScore' : `BooookScore (${metric})`}, ${judgedBy(rows.map(judgeLabel))}`,
      metric: 'BooookScore (%)',
      higherIsBetter: true,
      points: rows.map((x) => ({
        system: x.system,
        score: x100(x.score),
        ci95: x.ci95 ? [x100(x.ci95[0]), x100(x.ci95[1])] : null,
        costUsd: null,
      })),
      errors: errorRows(rows),
    };
  });
}
