import { preparedQuery } from '@precis/db';
import type { DataSource } from 'typeorm';

// The KGDS family's reads of imported samples (the engine's stores hold the rest).

export interface KgdsChunkRow {
  kind: string;
  sourceIndex: number | null;
  text: string;
  metadata: Record<string, unknown>;
}

export interface KgdsDocumentRow {
  id: string;
  external_id: string;
  data: Record<string, unknown>;
  // The document's source chunks (paragraphs, utterances) in order.
  chunks: KgdsChunkRow[];
}

// The given documents (those that exist) with their source chunks, in one query.
export async function kgdsDocumentRows(db: DataSource, ids: readonly string[]): Promise<KgdsDocumentRow[]> {
  return preparedQuery(
    db,
    `SELECT d.id, d.external_id, d.data,
            COALESCE(json_agg(json_build_object('kind', c.kind, 'sourceIndex', c.source_index, 'text', c.text,
                                                'metadata', c.metadata) ORDER BY c.ordinal)
                       FILTER (WHERE c.id IS NOT NULL), '[]'::json) AS chunks
       FROM documents d LEFT JOIN chunks c ON c.document_id = d.id AND c.scheme = 'source'
      WHERE d.id = ANY($1::uuid[])
      GROUP BY d.id`,
    [ids],
  );
}
