import type { DatasetKindParser, DatasetKindTable } from './dataset-kind.js';
import { parseJsonlDataset } from './parsers/jsonl.parser.js';
import { parseRetrievalDataset } from './parsers/retrieval.parser.js';
import { parseTextDataset } from './parsers/text.parser.js';

// Dataset kinds no family owns: plain documents (a text file, {id, text} JSONL), and queries
// retrieving from a documents JSONL (`precis retrieval eval`).
export const GENERIC_DATASET_KINDS: readonly DatasetKindParser[] = [
  {
    name: 'text',
    countOrder: ['documents', 'paragraphs', 'words', 'characters'],
    parse: ({ file, text, onRecord }) => {
      const parsed = parseTextDataset(file, text);
      onRecord?.(1);
      return parsed;
    },
  },
  {
    name: 'jsonl',
    countOrder: ['documents', 'paragraphs', 'references'],
    parse: ({ file, text, onRecord }) => parseJsonlDataset(file, text, onRecord),
  },
  {
    name: 'retrieval',
    corpus: true,
    countOrder: ['queries', 'relevant', 'documents'],
    parse: ({ file, text, documents, onRecord }) =>
      parseRetrievalDataset(file, text, documents!.file, documents!.text, onRecord),
  },
];

// The generic kinds by name: what an import reads when no kind table is given.
export const GENERIC_KIND_TABLE: DatasetKindTable = new Map(GENERIC_DATASET_KINDS.map((k) => [k.name, k]));
