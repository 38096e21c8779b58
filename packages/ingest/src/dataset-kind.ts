import type { ParsedDataset } from './types.js';

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
