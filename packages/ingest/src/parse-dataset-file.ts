import type { CorpusFileText, DatasetKindParser, DatasetKindTable } from './dataset-kind.js';
import { DatasetValidationError } from './errors.js';
import { GENERIC_KIND_TABLE } from './generic-kinds.js';
import { checkNoNulInFile } from './limits.js';
import { decodeDatasetBytes, readDatasetBytes } from './read-file.js';
import type { ParsedDataset } from './types.js';

export type { CorpusFileText } from './dataset-kind.js';

export interface ParsedDatasetFile extends ParsedDataset {
  sha256: string;
  bytes: number;
}

// Pure: validates already-decoded text (UTF-8, no BOM, LF line ends) of the given kind, read by
// the kind's parser in `kinds` (default: the generic kinds).
export function parseDatasetText(
  kind: string,
  file: string,
  text: string,
  onRecord?: (recordsParsed: number) => void,
  documents?: CorpusFileText,
  kinds: DatasetKindTable = GENERIC_KIND_TABLE,
): ParsedDataset {
  checkNoNulInFile(file, text);
  const parser = kindParser(kinds, kind, file);
  checkDocumentsFile(kinds, parser, file, documents);
  if (documents) checkNoNulInFile(documents.file, documents.text);
  return parser.parse!({
    file,
    text,
    ...(documents ? { documents } : {}),
    ...(onRecord ? { onRecord } : {}),
  });
}

function kindParser(kinds: DatasetKindTable, kind: string, file: string): DatasetKindParser {
  const parser = kinds.get(kind);
  if (parser?.parse) return parser;
  const readable = [...kinds.values()].filter((k) => k.parse).map((k) => k.name);
  throw new DatasetValidationError({
    file,
    problem: `no importer reads "${kind}" datasets`,
    hint: `import it as one of: ${readable.join(', ')}`,
  });
}

function checkDocumentsFile(
  kinds: DatasetKindTable,
  parser: DatasetKindParser,
  file: string,
  documents: CorpusFileText | undefined,
): void {
  const kind = parser.name;
  if (parser.corpus && !documents)
    throw new DatasetValidationError({
      file,
      problem: `a ${kind} dataset is two files and the documents file is missing`,
      hint: `name it with --documents <documents.jsonl> (the queries file comes first)`,
    });
  if (!parser.corpus && documents) {
    const corpusKinds = [...kinds.values()].filter((k) => k.corpus).map((k) => k.name);
    throw new DatasetValidationError({
      file: documents.file,
      problem: `--documents is only for ${corpusKinds.join(' and ')} datasets, not ${kind}`,
      hint: `drop --documents, or import the files as a ${corpusKinds.join(' or ')} dataset`,
    });
  }
}

// Reads, decodes (strict UTF-8) and validates a dataset file; throws DatasetValidationError.
export async function parseDatasetFile(
  kind: string,
  path: string,
  onRecord?: (recordsParsed: number) => void,
  kinds: DatasetKindTable = GENERIC_KIND_TABLE,
): Promise<ParsedDatasetFile> {
  const bytes = await readDatasetBytes(path);
  const decoded = decodeDatasetBytes(path, bytes);
  const parsed = parseDatasetText(kind, path, decoded.text, onRecord, undefined, kinds);
  return { ...parsed, sha256: decoded.sha256, bytes: bytes.length };
}
