import type { JudgmentEntity, RunEntity } from '@precis/db';
import { documentJudgments, type ReportBlock, type ReportColumn, reportTable } from '@precis/engine/family';
import type { DataSource } from 'typeorm';

type Verdict = JudgmentEntity;

const item = (v: Verdict) => {
  const d = v.verdict as Record<string, unknown>;
  if (typeof d.fact === 'string')
    return `[${d.paragraphIndex}] ${d.fact}${d.key ? ' (key)' : ' (non-supporting)'}`;
  if (typeof d.opinion === 'string') return d.opinion;
  return `gold EBS shown as ${d.goldFirst ? 'A' : 'B'}`;
};

const answer = (v: Verdict) => {
  const d = v.verdict as Record<string, unknown>;
  if (typeof d.inferred === 'boolean')
    return d.inferred ? 'inferred' : `not inferred${d.errorType ? `: ${d.errorType}` : ''}`;
  return `judge chose ${d.better} (${d.goldWins ? 'gold wins' : 'model wins'})`;
};

const COLUMNS: ReportColumn<Verdict>[] = [
  { header: 'check', show: (v) => v.metric.split('.').at(-1)! },
  { header: '#', show: (v) => String(v.unit + 1), csv: [{ header: '#', value: (v) => v.unit + 1 }] },
  { header: 'item', show: item },
  { header: 'verdict', show: answer },
  { header: 'judge', show: (v) => v.judge },
];

// For `runs show --trace <sample>`: each KGDS summary of the document, then every verdict of it
// (facts, opinions with their error types, the feedback judgment).
export async function kgdsTrace(db: DataSource, run: RunEntity, documentId: string): Promise<ReportBlock[]> {
  return (await documentJudgments(db, run.id, documentId, 'kgds.')).flatMap(
    ({ summary: s, judgments: own }) => {
      if (own.length === 0) return [];
      return [
        { key: `trace.${s.system}.summary`, heading: `${s.system} (${s.producer})`, notes: [s.text] },
        { key: `trace.${s.system}`, table: reportTable(COLUMNS, own) },
      ];
    },
  );
}
