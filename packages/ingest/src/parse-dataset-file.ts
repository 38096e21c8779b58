import { DatasetValidationError } from './errors.js';
import { checkNoNulInFile } from './limits.js';
import { parseJsonlDataset } from './parsers/jsonl.parser.js';
import { parseKgdsDataset } from './parsers/kgds.parser.js';
import { parsePersphereDataset } from './parsers/persphere.parser.js';
import { parseQmsumDataset } from './parsers/qmsum.parser.js';
import { parseRetrievalDataset } from './parsers/retrieval.parser.js';
import { parseSummevalOpDataset } from './parsers/summeval-op.parser.js';
import { parseTextDataset } from './parsers/text.parser.js';
import { decodeDatasetBytes, readDatasetBytes } from './read-file.js';
import { CORPUS_KINDS, type DatasetKindName, type ParsedDataset } from './types.js';

// The second file of a two-file kind (persphere, retrieval): the documents to retrieve from.
export interface CorpusFileText {
  file: string;
  text: string;
}

export interface ParsedDatasetFile extends ParsedDataset {
  sha256: string;
  bytes: number;
}

// Pure: validates already-decoded text (UTF-8, no BOM, LF line ends) of the given kind.
export function parseDatasetText(
  kind: DatasetKindName,
  file: string,
  text: string,
  onRecord?: (recordsParsed: number) => void,
  documents?: CorpusFileText,
): ParsedDataset {
  checkNoNulInFile(file, text);
  checkDocumentsFile(kind, file, documents);
  if (documents) checkNoNulInFile(documents.file, documents.text);
  switch (kind) {
    case 'persphere':
      return parsePersphereDataset(file, text, documents!.file, documents!.text, onRecord);
    case 'retrieval':
      return parseRetrievalDataset(file, text, documents!.file, documents!.text, onRecord);
    case 'kgds':
      return parseKgdsDataset(file, text, onRecord);
    case 'summeval-op':
      return parseSummevalOpDataset(file, text, onRecord);
    case 'jsonl':
      return parseJsonlDataset(file, text, onRecord);
    case 'qmsum':
      return parseQmsumDataset(file, text, onRecord);
    case 'text': {
      const parsed = parseTextDataset(file, text);
      onRecord?.(1);
      return parsed;
    }
  }
}

function checkDocumentsFile(
  kind: DatasetKindName,
  file: string,
  documents: CorpusFileText | undefined,
): void {
  const needs = CORPUS_KINDS.includes(kind);
  if (needs && !documents)
    throw new DatasetValidationError({
      file,
      problem: `a ${kind} dataset is two files and the documents file is missing`,
      hint: `name it with --documents <documents.jsonl> (the queries file comes first)`,
    });
  if (!needs && documents)
    throw new DatasetValidationError({
      file: documents.file,
      problem: `--documents is only for ${CORPUS_KINDS.join(' and ')} datasets, not ${kind}`,
      hint: 'drop --documents, or import the files as a persphere or retrieval dataset',
    });
}

// Reads, decodes (strict UTF-8) and validates a dataset file; throws DatasetValidationError.
export async function parseDatasetFile(
  kind: DatasetKindName,
  path: string,
  onRecord?: (recordsParsed: number) => void,
): Promise<ParsedDatasetFile> {
  const bytes = await readDatasetBytes(path);
  const decoded = decodeDatasetBytes(path, bytes);
  const parsed = parseDatasetText(kind, path, decoded.text, onRecord);
  return { ...parsed, sha256: decoded.sha256, bytes: bytes.length };
}
