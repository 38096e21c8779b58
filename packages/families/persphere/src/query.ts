import { CorpusDocumentEntity, DatasetEntity, DocumentEntity } from '@precis/db';
import { type Corpus, persphereTargets } from '@precis/retrievers';
import { type DataSource, In } from 'typeorm';
import type { PersphereSummary } from './prompts/persphere.parsers.js';

export interface GoldClaim {
  statement: string;
  perspectives: { text: string; evidence: string[] }[];
}

// One PerSphere query as imported: its text (the title), the two gold claims with their
// perspectives and evidence ids, and the corpus it retrieves from.
export interface PersphereQuery {
  documentId: string;
  externalId: string;
  text: string;
  claims: [GoldClaim, GoldClaim];
  corpus: Corpus;
}

export async function loadQuery(db: DataSource, documentId: string): Promise<PersphereQuery> {
  const doc = await db.getRepository(DocumentEntity).findOne({
    select: { id: true, datasetId: true, externalId: true, text: true, data: true },
    where: { id: documentId },
  });
  if (!doc) throw new Error(`document ${documentId} is gone from the database`);
  const dataset = await db.getRepository(DatasetEntity).findOneOrFail({ where: { id: doc.datasetId } });
  const claims = (doc.data as { claims?: GoldClaim[] }).claims;
  if (dataset.kind !== 'persphere' || !claims || claims.length !== 2)
    throw new Error(
      `document ${doc.externalId} of dataset ${dataset.name} (${dataset.kind}) is not a PerSphere query`,
    );
  return {
    documentId: doc.id,
    externalId: doc.externalId,
    text: doc.text,
    claims: claims as [GoldClaim, GoldClaim],
    corpus: {
      datasetId: dataset.id,
      datasetName: dataset.name,
      sha256: dataset.sourceSha256,
      kind: dataset.kind,
    },
  };
}

// Texts of corpus documents by id, in the order asked; an id the corpus lacks is an error.
export async function corpusTexts(
  db: DataSource,
  datasetId: string,
  ids: readonly string[],
): Promise<{ id: string; text: string }[]> {
  const rows = ids.length
    ? await db.getRepository(CorpusDocumentEntity).find({
        select: { externalId: true, text: true },
        where: { datasetId, externalId: In([...new Set(ids)]) },
      })
    : [];
  const byId = new Map(rows.map((r) => [r.externalId, r.text]));
  return ids.map((id) => {
    const text = byId.get(id);
    if (text === undefined) throw new Error(`corpus document ${id} is gone from the database`);
    return { id, text };
  });
}

// Every gold evidence id of the query, in claim and perspective order, once.
export const goldEvidence = (q: PersphereQuery): string[] => persphereTargets(q.claims).relevant;

// The golden summary the rating judge compares with (each perspective citing its evidence).
export const goldenSummary = (q: PersphereQuery): PersphereSummary => ({
  claims: q.claims.map((c) => ({
    statement: c.statement,
    perspectives: c.perspectives.map((p) => ({ text: p.text, refs: p.evidence })),
  })) as PersphereSummary['claims'],
});
