import type { RunEntity } from '@precis/db';
import {
  type BenchmarkSpec,
  documentTexts,
  isGeneratedSystem,
  type ReportBlock,
  type ReportColumn,
  reportTable,
} from '@precis/engine/family';
import type { DataSource } from 'typeorm';
import { gorSettings } from '../gor-spec.js';
import { meetingChunks } from '../meeting.js';
import { gorSummaryTaskRows } from '../store.js';

type NodeRow = { rank: number; node: number; kind: string; text: string };

const COLUMNS: ReportColumn<NodeRow>[] = [
  { header: 'rank', show: (r) => String(r.rank), csv: [{ header: 'rank', value: (r) => r.rank }] },
  { header: 'node', show: (r) => String(r.node), csv: [{ header: 'node', value: (r) => r.node }] },
  { header: 'kind', show: (r) => r.kind },
  { header: 'text (first words)', show: (r) => r.text },
];

const firstWords = (text: string, n = 14) => {
  const words = text.split(/\s+/).filter(Boolean);
  return words.length > n ? `${words.slice(0, n).join(' ')} …` : words.join(' ');
};

// For `runs show --trace <meeting>`: each GoR system's summary, the questions its graph was grown
// from, and the nodes (chunks, responses) its summary read, best first.
export async function gorTrace(db: DataSource, run: RunEntity, documentId: string): Promise<ReportBlock[]> {
  const rows = await gorSummaryTaskRows(db, run.id, documentId);
  const meeting = (await documentTexts(db, [documentId])).get(documentId) ?? '';
  const spec = run.spec as unknown as BenchmarkSpec;
  return rows.flatMap(({ payload: p, text, producer }) => {
    const system = spec.systems.find((x) => x.name === p.system);
    if (!system || !isGeneratedSystem(system)) return [];
    const settings = gorSettings(system);
    const chunks = meetingChunks(meeting, settings.chunkTokens, settings.chunkOverlap);
    const nodes = [...chunks, ...(p.graph?.responses ?? [])];
    const kind = (n: number) => (n < chunks.length ? `chunk ${n + 1}` : `response ${n - chunks.length + 1}`);
    const blocks: ReportBlock[] = [
      {
        key: `trace.${p.system}.summary`,
        heading: `${p.system} (${producer ?? 'no summary'})`,
        notes: [text ?? '(no summary)'],
      },
    ];
    if (p.queries)
      blocks.push({
        key: `trace.${p.system}.queries`,
        list: p.queries.queries.map((q) => `${q.question} (from chunk ${q.chunk + 1})`),
      });
    if (p.ranked)
      blocks.push({
        key: `trace.${p.system}.nodes`,
        notes: [`Ranked by ${p.ranked.ranker}; the summary read these nodes.`],
        table: reportTable(
          COLUMNS,
          p.ranked.nodes.map((node, i) => ({
            rank: i + 1,
            node,
            kind: kind(node),
            text: firstWords(nodes[node] ?? ''),
          })),
        ),
      });
    return blocks;
  });
}
