import { DatasetEntity, DocumentEntity } from '@precis/db';
import { chunkByTokens } from '@precis/text';
import type { DataSource } from 'typeorm';

// The query a meeting's summary answers when its general queries name none.
export const GLOBAL_QUERY = 'Summarize the whole meeting.';

// One QMSum meeting as imported: its turns as text, the general queries' answers (references)
// and the first general query (the global query GoR ranks records for).
export interface Meeting {
  documentId: string;
  datasetId: string;
  externalId: string;
  text: string;
  references: string[];
  globalQuery: string;
}

export async function loadMeeting(db: DataSource, documentId: string): Promise<Meeting> {
  const doc = await db.getRepository(DocumentEntity).findOne({
    select: { id: true, datasetId: true, externalId: true, text: true, data: true },
    where: { id: documentId },
  });
  if (!doc) throw new Error(`document ${documentId} is gone from the database`);
  const data = doc.data as { references?: string[]; generalQueries?: { query: string }[] };
  if (!Array.isArray(data.references)) {
    const dataset = await db.getRepository(DatasetEntity).findOneOrFail({ where: { id: doc.datasetId } });
    throw new Error(
      `document ${doc.externalId} of dataset ${dataset.name} (${dataset.kind}) has no reference summaries: GoR runs on qmsum datasets`,
    );
  }
  return {
    documentId: doc.id,
    datasetId: doc.datasetId,
    externalId: doc.externalId,
    text: doc.text,
    references: data.references,
    globalQuery: data.generalQueries?.[0]?.query ?? GLOBAL_QUERY,
  };
}

// The meeting's chunks (METHODS.md §5.1: 256 tokens, overlap 32), the graph's first nodes.
export const meetingChunks = (text: string, size: number, overlap: number): string[] =>
  chunkByTokens(text, { size, overlap }).map((c) => c.text);
