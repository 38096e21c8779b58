import { batcherFor, type TurnBatcher } from '@precis/db/group-commit';
import { boundedMemo } from '@precis/engine/family';
import type { DataSource } from 'typeorm';
import { type KgdsDocumentRow, kgdsDocumentRows } from './store.js';

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

// Documents read per query by loadKgdsSamples: bounds a statement's parameter and its rows.
const SAMPLES_PER_QUERY = 1000;

const sampleBatchers = new WeakMap<DataSource, TurnBatcher<string, KgdsSample>>();

// Samples never change once imported: memoized per document (bounded). The documents asked for
// in one event-loop turn are read together: 400 offline summaries starting at once read 100
// samples with 100 statements before (kgds-verify).
export const loadKgdsSample = boundedMemo<KgdsSample>(512, (db, documentId) =>
  batcherFor(sampleBatchers, db, async (ids: string[]) => {
    const samples = await loadKgdsSamples(db, ids);
    return ids.map((id) => samples.get(id)!);
  }).submit(documentId),
);

// The samples of many documents, by document id, one query per 1,000 documents (scoring and
// gold summaries need every document of a run). The first id that is no KGDS sample throws.
export async function loadKgdsSamples(
  db: DataSource,
  ids: readonly string[],
): Promise<Map<string, KgdsSample>> {
  const unique = [...new Set(ids)];
  const rows = new Map<string, KgdsDocumentRow>();
  for (let i = 0; i < unique.length; i += SAMPLES_PER_QUERY)
    for (const row of await kgdsDocumentRows(db, unique.slice(i, i + SAMPLES_PER_QUERY)))
      rows.set(row.id, row);
  return new Map(unique.map((id) => [id, sampleOf(id, rows.get(id.toLowerCase()))]));
}

function factsOf(groups: FactGroupJson[] | undefined, type: number, key: boolean): KgdsFact[] {
  return (groups ?? []).flatMap((g) =>
    g.facts
      .filter((f) => f.type === type)
      .map((f) => ({ paragraphIndex: g.paragraphIndex, text: f.text, key })),
  );
}

function sampleOf(documentId: string, doc: KgdsDocumentRow | undefined): KgdsSample {
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
  const chunks = doc.chunks;
  const facts = [
    ...factsOf(data.supportingFacts, KEY_FACT, true),
    ...factsOf(data.nonSupportingFacts, NON_SUPPORTING_FACT, false),
  ].sort((a, b) => a.paragraphIndex - b.paragraphIndex);
  return {
    externalId: doc.external_id,
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
