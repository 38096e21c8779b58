import { JudgmentEntity, type RunEntity, SummaryEntity } from '@precis/db';
import { type ReportBlock, type ReportColumn, reportTable } from '@precis/engine';
import type { DataSource } from 'typeorm';
import { In, Like } from 'typeorm';

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
  const summaries = await db
    .getRepository(SummaryEntity)
    .find({ where: { runId: run.id, documentId }, order: { system: 'ASC' } });
  if (summaries.length === 0) return [];
  const verdicts = await db.getRepository(JudgmentEntity).find({
    where: { summaryId: In(summaries.map((s) => s.id)), metric: Like('kgds.%') },
    order: { metric: 'ASC', unit: 'ASC' },
  });
  return summaries.flatMap((s) => {
    const own = verdicts.filter((v) => v.summaryId === s.id);
    if (own.length === 0) return [];
    return [
      { key: `trace.${s.system}.summary`, heading: `${s.system} (${s.producer})`, notes: [s.text] },
      { key: `trace.${s.system}`, table: reportTable(COLUMNS, own) },
    ];
  });
}
