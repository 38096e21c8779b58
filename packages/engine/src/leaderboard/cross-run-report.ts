import {
  fixed,
  type ReportBlock,
  type ReportColumn,
  rankColumn,
  reportTable,
} from '../report/report-blocks.js';
import type { BoardComparison, BoardEntry, CrossRunBoard } from './cross-run.js';
import { MIN_DOCUMENTS } from './evidence-rank.js';

const ENTRY_COLUMNS: ReportColumn<BoardEntry>[] = [
  rankColumn(),
  { header: 'system', show: (e) => e.system },
  {
    header: 'mean',
    show: (e) => fixed(e.mean, 4),
    csv: [{ header: 'mean', value: (e) => e.mean }],
    pin: true,
  },
  { header: 'run', show: (e) => `${e.run.name} (${e.run.id.slice(0, 8)})` },
  { header: 'produced by', show: (e) => e.producedBy },
];

const COMPARISON_COLUMNS: ReportColumn<BoardComparison>[] = [
  { header: 'better', show: (c) => c.better },
  { header: 'worse', show: (c) => c.worse },
  {
    header: 'mean diff',
    show: (c) => fixed(c.meanDiff, 4),
    csv: [{ header: 'mean diff', value: (c) => c.meanDiff }],
  },
  { header: 'p', show: (c) => fixed(c.p, 4), csv: [{ header: 'p', value: (c) => c.p }] },
  {
    header: 'p (Holm)',
    show: (c) => fixed(c.pHolm, 4),
    csv: [{ header: 'p (Holm)', value: (c) => c.pHolm }],
  },
  { header: 'significant', show: (c) => (c.p === null ? 'not tested' : c.significant ? 'yes' : 'no') },
];

// The cross-run leaderboard in every format but JSON: the ranked systems, then every comparison.
export function crossRunBlocks(board: CrossRunBoard): ReportBlock[] {
  const judges = [...new Set(board.entries.map((e) => e.producedBy))];
  return [
    {
      key: 'leaderboard',
      heading: `${board.metric}: ${board.entries.length} systems on ${board.documents} shared documents, ranked by mean ${board.metric}`,
      table: reportTable(ENTRY_COLUMNS, board.entries),
      notes: [
        `Rows by mean over the documents every system scored (higher is better). A rank is 1 + the systems significantly better (paired bootstrap, ${board.resamples} resamples, Holm-corrected, alpha ${board.alpha}; none tested on fewer than ${MIN_DOCUMENTS} documents): "=" marks a rank several systems share.`,
        ...board.notes,
        ...(judges.length > 1
          ? [`The values come from different producers (${judges.join('; ')}): compare them with care.`]
          : []),
      ],
    },
    {
      key: 'comparisons',
      heading: 'Paired comparisons',
      table: reportTable(COMPARISON_COLUMNS, board.comparisons),
    },
  ];
}
