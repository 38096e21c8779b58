import { ChunkEntity, CorpusDocumentEntity, DatasetEntity, DocumentEntity } from '@precis/db';
import type { DataSource, EntityManager } from 'typeorm';
import type { DatasetKindTable } from './dataset-kind.js';
import { DatasetNotFoundError } from './errors.js';
import { GENERIC_KIND_TABLE } from './generic-kinds.js';

export interface DatasetSummary {
  id: string;
  name: string;
  kind: string;
  sourcePath: string;
  sourceSha256: string;
  // Kind-specific counts computed at import (e.g. KGDS: paragraphs, utterances, keyFacts...).
  counts: Record<string, number>;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

// jsonb does not keep key order; show counts in the order each kind registers them.
export function orderCounts(
  kind: string,
  counts: Record<string, number>,
  kinds: DatasetKindTable = GENERIC_KIND_TABLE,
): Record<string, number> {
  const order = kinds.get(kind)?.countOrder ?? [];
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return Object.fromEntries(
    Object.entries(counts).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b)),
  );
}

export function toDatasetSummary(row: DatasetEntity, kinds?: DatasetKindTable): DatasetSummary {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    sourcePath: row.sourcePath,
    sourceSha256: row.sourceSha256,
    counts: orderCounts(row.kind, row.counts, kinds),
    metadata: row.metadata,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

export async function listDatasets(
  ds: DataSource | EntityManager,
  filter: { kind?: string } = {},
  kinds?: DatasetKindTable,
): Promise<DatasetSummary[]> {
  const manager = 'manager' in ds ? ds.manager : ds;
  const rows = await manager.getRepository(DatasetEntity).find({
    where: filter.kind ? { kind: filter.kind } : {},
    order: { name: 'ASC' },
  });
  return rows.map((row) => toDatasetSummary(row, kinds));
}

export interface DatasetDetails extends DatasetSummary {
  // What is actually stored: documents and source chunks per chunk kind.
  stored: { documents: number; chunks: Record<string, number>; corpusDocuments: number };
}

export async function getDatasetSummary(
  ds: DataSource | EntityManager,
  name: string,
  kinds?: DatasetKindTable,
): Promise<DatasetDetails> {
  const manager = 'manager' in ds ? ds.manager : ds;
  const row = await manager.getRepository(DatasetEntity).findOne({ where: { name } });
  if (!row) throw new DatasetNotFoundError(name);
  const documents = await manager.getRepository(DocumentEntity).count({ where: { datasetId: row.id } });
  const perKind = await manager
    .getRepository(ChunkEntity)
    .createQueryBuilder('c')
    .innerJoin(DocumentEntity, 'd', 'd.id = c.document_id')
    .select('c.kind', 'kind')
    .addSelect('COUNT(*)', 'n')
    .where('d.dataset_id = :id', { id: row.id })
    .andWhere("c.scheme = 'source'")
    .groupBy('c.kind')
    .orderBy('c.kind')
    .getRawMany<{ kind: string; n: string | number }>();
  const chunks: Record<string, number> = {};
  // pg returns bigint aggregates as strings, PGlite as numbers.
  for (const r of perKind) chunks[r.kind] = Number(r.n);
  const corpusDocuments = await manager
    .getRepository(CorpusDocumentEntity)
    .count({ where: { datasetId: row.id } });
  return { ...toDatasetSummary(row, kinds), stored: { documents, chunks, corpusDocuments } };
}
