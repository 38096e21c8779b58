import type { JudgmentEntity, RunEntity } from '@precis/db';
import { documentJudgments, type ReportBlock, type ReportColumn, reportTable } from '@precis/engine/family';
import type { DataSource } from 'typeorm';

type Verdict = {
  score?: number | null;
  parsed?: number;
  unparsed?: number;
  distribution?: Record<string, number>;
  method?: string;
  failure?: string;
  template?: string;
};

const verdictOf = (j: JudgmentEntity) => j.verdict as Verdict;

const COLUMNS: ReportColumn<JudgmentEntity>[] = [
  { header: 'dimension', show: (j) => j.metric.replace(/^dimension:/, '') },
  {
    header: 'score',
    show: (j) => (typeof verdictOf(j).score === 'number' ? verdictOf(j).score!.toFixed(2) : 'failed'),
    csv: [{ header: 'score', value: (j) => verdictOf(j).score ?? null }],
  },
  // Each sampled score with how many samples gave it, e.g. '3×5, 4×10, 5×3'.
  {
    header: 'samples',
    show: (j) =>
      Object.entries(verdictOf(j).distribution ?? {})
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([score, n]) => `${score}×${n}`)
        .join(', '),
  },
  { header: 'parsed', show: (j) => String(verdictOf(j).parsed ?? 0) },
  { header: 'unparsed', show: (j) => String(verdictOf(j).unparsed ?? 0) },
  { header: 'method', show: (j) => verdictOf(j).failure ?? verdictOf(j).method ?? '' },
  {
    header: 'judge',
    show: (j) => `${j.judge} (${verdictOf(j).template ?? j.templateVersion ?? 'template not recorded'})`,
  },
];

// For `runs show --trace` and the web page's drill-down: each summary of the document with the
// dimension judge's samples (each score and how often it was sampled, how many did not parse).
export async function dimensionTrace(
  db: DataSource,
  run: RunEntity,
  documentId: string,
): Promise<ReportBlock[]> {
  const summaries = await documentJudgments(db, run.id, documentId, 'dimension:');
  return summaries.flatMap(({ summary: s, judgments }) =>
    judgments.length === 0
      ? []
      : [
          {
            key: `trace.${s.system}.dimensions`,
            heading: `${s.system}: judge samples (${s.producer})`,
            table: reportTable(COLUMNS, judgments),
          },
        ],
  );
}
