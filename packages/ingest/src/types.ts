// JSON-serializable values stored in jsonb columns.
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

// A unit the source gives (paragraph, utterance, review): stored with scheme 'source'.
export interface ParsedChunk {
  kind: 'paragraph' | 'utterance' | 'review';
  text: string;
  sourceIndex: number | null;
  metadata: JsonObject;
}

export interface ParsedDocument {
  externalId: string;
  title: string | null;
  text: string;
  data: JsonObject;
  metadata: JsonObject;
  chunks: ParsedChunk[];
}

export interface ParsedDataset {
  kind: string;
  file: string;
  documents: ParsedDocument[];
  // The retrieval corpus of a two-file kind (persphere, retrieval).
  corpus?: ParsedCorpusDocument[];
  // Kind-specific counts shown by `precis datasets show`.
  counts: Record<string, number>;
  metadata: JsonObject;
}

export interface ParseProgress {
  recordsParsed: number;
}

// A document of a retrieval corpus (stored in corpus_documents, ranked by retrievers).
export interface ParsedCorpusDocument {
  externalId: string;
  title: string | null;
  text: string;
}
