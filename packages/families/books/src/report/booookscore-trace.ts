import type { JudgmentEntity, RunEntity } from '@precis/db';
import { documentJudgments, type ReportBlock, type ReportColumn, reportTable } from '@precis/engine/family';
import { splitSentences } from '@precis/text';
import type { DataSource } from 'typeorm';

type Annotated = { n: number; sentence: string; judgment: JudgmentEntity | undefined };

// What the judge said of one sentence: confusing or not, with the error types and questions.
function verdictCell(j: JudgmentEntity | undefined): string {
  if (!j) return 'not judged';
  const v = j.verdict as { confusing?: boolean; types?: string[]; questions?: string[]; error?: string };
  if (j.status === 'failed') return `judge failed: ${v.error ?? 'unknown error'}`;
  if (!v.confusing) return 'coherent';
  const types = v.types?.length ? ` (${v.types.join(', ')})` : '';
  const questions = v.questions?.length ? `: ${v.questions.join(' ')}` : '';
  return `confusing${types}${questions}`;
}

const COLUMNS: ReportColumn<Annotated>[] = [
  { header: '#', show: (a) => String(a.n), csv: [{ header: '#', value: (a) => a.n }] },
  { header: 'sentence', show: (a) => a.sentence },
  { header: 'verdict', show: (a) => verdictCell(a.judgment) },
  { header: 'judge', show: (a) => (a.judgment ? a.judgment.judge : '') },
];

// For `runs show --trace` and the web page's drill-down: each summary of the document with its
// sentences annotated by the BooookScore judge (the sentence numbers the judge was given).
export async function booookScoreTrace(
  db: DataSource,
  run: RunEntity,
  documentId: string,
): Promise<ReportBlock[]> {
  const summaries = await documentJudgments(db, run.id, documentId, 'booookscore.');
  return summaries.flatMap(({ summary: s, judgments: own }) => {
    if (own.length === 0) return [];
    return [...new Set(own.map((j) => j.metric))].map((metric) => ({
      key: `trace.${s.system}.${metric}`,
      heading: `${s.system}: ${metric} (${s.producer})`,
      table: reportTable(
        COLUMNS,
        splitSentences(s.text).map((sentence, i) => ({
          n: i + 1,
          sentence,
          judgment: own.find((j) => j.metric === metric && j.unit === i + 1),
        })),
      ),
    }));
  });
}
