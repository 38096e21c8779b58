import { datasetDocumentIds } from '@precis/engine';
import type { EntityManager } from 'typeorm';
import { datasetIdByName, datasetsByIdOrName } from './portable.store.js';

type Row = Record<string, unknown>;

// What an import does with a dataset of the file: write it, find it already there under the same
// id, or use the copy this database imported itself from the same file (its own ids).
export type DatasetMatch = 'insert' | 'same' | 'remap';

export class DatasetConflict extends Error {}

// Decides for one dataset row of the file; throws DatasetConflict when this database holds
// another file under its id or its name.
export async function matchDataset(em: EntityManager, row: Row, target: string): Promise<DatasetMatch> {
  const stored = await datasetsByIdOrName(em, row.id, row.name);
  const found = stored[0];
  if (!found) return 'insert';
  const sameFile = found.kind === row.kind && found.source_sha256 === row.source_sha256;
  if (sameFile && found.name === row.name) return found.id === row.id ? 'same' : 'remap';
  const what =
    found.id === row.id
      ? `dataset ${row.id} (here named "${found.name}")`
      : `a dataset named "${found.name}"`;
  throw new DatasetConflict(
    `${what} already exists in ${target} with other content (${found.kind}, sha256 ${found.source_sha256.slice(0, 12)}…; ` +
      `the run used ${String(row.kind)}, sha256 ${String(row.source_sha256).slice(0, 12)}…): ` +
      'import into another database, or re-import that dataset there from the file the run used',
  );
}

const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

// The file's dataset and document ids mapped to this database's ids for datasets it already
// holds from the same file: every later row (task ids, payloads, summaries) is rewritten with them.
export class IdRemap {
  private readonly ids = new Map<string, string>();
  // File dataset id -> this database's document id of each external id.
  private readonly documents = new Map<string, Map<string, string>>();
  private readonly skippedDocuments = new Set<string>();

  async addDataset(em: EntityManager, fileId: string, name: string): Promise<void> {
    const stored = await datasetIdByName(em, name);
    const rows = await datasetDocumentIds(em, stored!.id);
    this.ids.set(fileId, String(stored!.id));
    this.documents.set(fileId, new Map(rows.map((r) => [r.external_id, r.id])));
  }

  // True when the document is this database's already (mapped, not written); throws when the
  // stored copy lacks it.
  mapsDocument(row: Row): boolean {
    const byExternal = this.documents.get(String(row.dataset_id));
    if (!byExternal) return false;
    const id = byExternal.get(String(row.external_id));
    if (!id)
      throw new DatasetConflict(
        `document "${String(row.external_id)}" is not in this database's copy of its dataset: import into another database`,
      );
    this.ids.set(String(row.id), id);
    this.skippedDocuments.add(String(row.id));
    return true;
  }

  // Chunks of a mapped document are there already.
  mapsChunk(row: Row): boolean {
    return this.skippedDocuments.has(String(row.document_id));
  }

  apply(row: Row): Row {
    return this.ids.size === 0 ? row : (this.rewrite(row) as Row);
  }

  private rewrite(value: unknown): unknown {
    if (typeof value === 'string') return value.replace(UUIDS, (id) => this.ids.get(id) ?? id);
    if (Array.isArray(value)) return value.map((v) => this.rewrite(v));
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.rewrite(k), this.rewrite(v)]));
    return value;
  }
}
