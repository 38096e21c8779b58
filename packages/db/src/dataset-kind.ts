// What a dataset kind's parser reads and returns: the rows an import stores (datasets, documents,
// chunks, corpus documents). Owned here so the engine and @precis/ingest share them.

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

// The second file of a two-file kind (persphere, retrieval): the documents to retrieve from.
export interface CorpusFileText {
  file: string;
  text: string;
}

// One dataset file (already decoded) handed to its kind's parser.
export interface DatasetFileInput {
  file: string;
  text: string;
  // The documents file, given exactly when the kind is a corpus kind.
  documents?: CorpusFileText;
  onRecord?: (recordsParsed: number) => void;
}

// A dataset kind as its family (or @precis/ingest, for the generic ones) registers it.
export interface DatasetKindParser {
  readonly name: string;
  // Two files: the queries (`path`) and the documents JSONL they retrieve from (`corpus`).
  readonly corpus?: boolean;
  // The order `datasets show` lists its counts in (jsonb keeps no key order).
  readonly countOrder?: readonly string[];
  // Validates and parses the file(s); a kind without it can be named but not imported.
  parse?(input: DatasetFileInput): ParsedDataset;
}

// The kinds an import may read, by name (a family registry's datasetKinds is one).
export type DatasetKindTable = ReadonlyMap<string, DatasetKindParser>;
