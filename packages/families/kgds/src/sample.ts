import { ChunkEntity, DocumentEntity } from '@precis/db';
import { boundedMemo } from '@precis/engine';
import type { DataSource } from 'typeorm';

export interface KgdsFact {
  paragraphIndex: number;
  text: string;
  // K: a key supporting fact (BSPAF type 1); N: a non-supporting fact (BNPAF type 0).
  key: boolean;
}

// One KGDS sample as imported (METHODS.md §2.1): the article, the discussion and the gold data.
export interface KgdsSample {
  // The sample's id in its dataset (stable across databases, unlike the document's uuid).
  externalId: string;
  paragraphs: { index: number; text: string }[];
  utterances: { participant: string; utterance: string }[];
  // S: the gold background-supporting paragraph indices.
  gold: number[];
  // CAO: the clear atomic opinions.
  opinions: string[];
  // K ∪ N, in paragraph order; the other fact types are not evaluated.
  facts: KgdsFact[];
}

interface FactGroupJson {
  paragraphIndex: number;
  facts: { text: string; type: number }[];
}

const KEY_FACT = 1;
const NON_SUPPORTING_FACT = 0;

// Samples never change once imported: memoized per document (bounded).
export const loadKgdsSample = boundedMemo<KgdsSample>(512, load);

function factsOf(groups: FactGroupJson[] | undefined, type: number, key: boolean): KgdsFact[] {
  return (groups ?? []).flatMap((g) =>
    g.facts
      .filter((f) => f.type === type)
      .map((f) => ({ paragraphIndex: g.paragraphIndex, text: f.text, key })),
  );
}

async function load(db: DataSource, documentId: string): Promise<KgdsSample> {
  const doc = await db.getRepository(DocumentEntity).findOneBy({ id: documentId });
  if (!doc) throw new Error(`document ${documentId} does not exist`);
  const data = doc.data as {
    supportingParagraphs?: number[];
    opinions?: string[];
    supportingFacts?: FactGroupJson[];
    nonSupportingFacts?: FactGroupJson[];
  };
  if (!Array.isArray(data.supportingParagraphs) || !Array.isArray(data.opinions))
    throw new Error(
      `document ${documentId} is not a KGDS sample (no supportingParagraphs/opinions in its data)`,
    );
  const chunks = await db.getRepository(ChunkEntity).find({
    where: { documentId, scheme: 'source' },
    order: { ordinal: 'ASC' },
  });
  const facts = [
    ...factsOf(data.supportingFacts, KEY_FACT, true),
    ...factsOf(data.nonSupportingFacts, NON_SUPPORTING_FACT, false),
  ].sort((a, b) => a.paragraphIndex - b.paragraphIndex);
  return {
    externalId: doc.externalId,
    paragraphs: chunks
      .filter((c) => c.kind === 'paragraph')
      .map((c) => ({ index: c.sourceIndex ?? 0, text: c.text })),
    utterances: chunks
      .filter((c) => c.kind === 'utterance')
      .map((c) => ({ participant: String(c.metadata.participant ?? ''), utterance: c.text })),
    gold: data.supportingParagraphs,
    opinions: data.opinions,
    facts,
  };
}

export const formatParagraphs = (s: KgdsSample) =>
  s.paragraphs.map((p) => `[${p.index}] ${p.text}`).join('\n');
export const formatUtterances = (s: KgdsSample) =>
  s.utterances.map((u) => `${u.participant}: ${u.utterance}`).join('\n');
