import { checkNoNulInFile } from './limits.js';
import { parseJsonlDataset } from './parsers/jsonl.parser.js';
import { parseKgdsDataset } from './parsers/kgds.parser.js';
import { parseSummevalOpDataset } from './parsers/summeval-op.parser.js';
import { parseTextDataset } from './parsers/text.parser.js';
import { decodeDatasetBytes, readDatasetBytes } from './read-file.js';
import type { DatasetKindName, ParsedDataset } from './types.js';

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
): ParsedDataset {
  checkNoNulInFile(file, text);
  switch (kind) {
    case 'kgds':
      return parseKgdsDataset(file, text, onRecord);
    case 'summeval-op':
      return parseSummevalOpDataset(file, text, onRecord);
    case 'jsonl':
      return parseJsonlDataset(file, text, onRecord);
    case 'text': {
      const parsed = parseTextDataset(file, text);
      onRecord?.(1);
      return parsed;
    }
  }
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
