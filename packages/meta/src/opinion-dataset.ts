import { ChunkEntity, DatasetEntity, DocumentEntity } from '@precis/db';
import { OPINION_DIMENSION_IDS, type OpinionDimensionId } from '@precis/prompts';
import type { DataSource } from 'typeorm';
import { MetaInputError } from './errors.js';

export type DimensionScores = Partial<Record<OpinionDimensionId, number>>;

export interface RatedSummary {
  system: string;
  summary: string;
  // Mean human rating per dimension.
  ratings: DimensionScores;
}

export interface OpinionProduct {
  // documents.id, used to join judge scores.
  documentId: string;
  // documents.external_id, e.g. product-01.
  id: string;
  reviews: string[];
  summaries: RatedSummary[];
}

export interface OpinionDataset {
  name: string;
  products: OpinionProduct[];
}

// The human summary system of SummEval-OP: the default reference of reference-based metrics.
export const SUMMEVAL_OP_HUMAN_SYSTEM = 'human-summaries';

// Reads an imported SummEval-OP dataset back from documents (rated summaries in data) and
// chunks (reviews, scheme 'source').
export async function loadOpinionDataset(ds: DataSource, name: string): Promise<OpinionDataset> {
  const dataset = await ds.getRepository(DatasetEntity).findOne({ where: { name } });
  if (!dataset) {
    throw new MetaInputError(
      `no dataset named "${name}"; import it first with \`precis ingest summeval-op <file> --dataset ${name}\``,
    );
  }
  if (dataset.kind !== 'summeval-op') {
    throw new MetaInputError(
      `dataset "${name}" is of kind ${dataset.kind}; meta-evaluation needs a summeval-op dataset (rated candidate summaries)`,
    );
  }
  const documents = await ds
    .getRepository(DocumentEntity)
    .find({ where: { datasetId: dataset.id }, order: { ordinal: 'ASC' } });
  const chunks = await ds
    .getRepository(ChunkEntity)
    .createQueryBuilder('c')
    .innerJoin(DocumentEntity, 'd', 'd.id = c.document_id')
    .where('d.dataset_id = :id', { id: dataset.id })
    .andWhere("c.scheme = 'source'")
    .andWhere("c.kind = 'review'")
    .orderBy('c.ordinal', 'ASC')
    .getMany();
  const reviews = new Map<string, string[]>();
  for (const c of chunks) {
    const list = reviews.get(c.documentId) ?? [];
    list.push(c.text);
    reviews.set(c.documentId, list);
  }
  const products = documents.map((d) => ({
    documentId: d.id,
    id: d.externalId,
    reviews: reviews.get(d.id) ?? [],
    summaries: readSummaries(name, d),
  }));
  return { name, products };
}

function readSummaries(dataset: string, doc: DocumentEntity): RatedSummary[] {
  const raw = (doc.data as { summaries?: unknown }).summaries;
  if (!Array.isArray(raw)) {
    throw new MetaInputError(
      `dataset "${dataset}", document ${doc.externalId}: no rated summaries in documents.data; re-import the dataset`,
    );
  }
  return raw.map((entry) => {
    const e = entry as { system?: unknown; summary?: unknown; ratings?: Record<string, unknown> };
    const ratings: DimensionScores = {};
    for (const dim of OPINION_DIMENSION_IDS) {
      const v = e.ratings?.[dim];
      if (typeof v === 'number' && Number.isFinite(v)) ratings[dim] = v;
    }
    return { system: String(e.system), summary: String(e.summary), ratings };
  });
}

export function summaryKey(productId: string, system: string): string {
  return `${productId}\u0000${system}`;
}

export function systemsOf(products: readonly OpinionProduct[]): string[] {
  const seen = new Set<string>();
  for (const p of products) for (const s of p.summaries) seen.add(s.system);
  return [...seen];
}
