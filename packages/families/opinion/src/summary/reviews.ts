import { ChunkEntity, DocumentEntity } from '@precis/db';
import { boundedMemo } from '@precis/engine/family';
import type { DataSource } from 'typeorm';

// The reviews of an opinion dataset document (chunks kind 'review', scheme 'source', in order);
// a document without review chunks is its own single "review".
// A product's reviews never change once imported: memoized per document (bounded).
export const documentReviews = boundedMemo<string[]>(1024, load);

async function load(db: DataSource, documentId: string): Promise<string[]> {
  const chunks = await db.getRepository(ChunkEntity).find({
    where: { documentId, scheme: 'source', kind: 'review' },
    order: { ordinal: 'ASC' },
  });
  if (chunks.length) return chunks.map((c) => c.text);
  const doc = await db.getRepository(DocumentEntity).findOneBy({ id: documentId });
  if (!doc) throw new Error(`document ${documentId} does not exist`);
  return [doc.text];
}

export interface DatasetSummary {
  system: string;
  summary: string;
  ratings: Record<string, number>;
}

// Rated candidate summaries stored by the SummEval-OP importer in documents.data.summaries.
export function datasetSummaries(doc: Pick<DocumentEntity, 'data'>): DatasetSummary[] {
  const raw = (doc.data as { summaries?: unknown } | null)?.summaries;
  if (!Array.isArray(raw)) return [];
  const out: DatasetSummary[] = [];
  for (const entry of raw) {
    const e = entry as { system?: unknown; summary?: unknown; ratings?: unknown };
    if (typeof e.system !== 'string' || typeof e.summary !== 'string') continue;
    const ratings: Record<string, number> = {};
    if (e.ratings && typeof e.ratings === 'object') {
      for (const [k, v] of Object.entries(e.ratings as Record<string, unknown>))
        if (typeof v === 'number' && Number.isFinite(v)) ratings[k] = v;
    }
    out.push({ system: e.system, summary: e.summary, ratings });
  }
  return out;
}
