import type { DatasetKindParser } from '@precis/ingest';
import { parsePersphereDataset } from './persphere.parser.js';

// PerSphere: queries JSONL with two claims each, retrieving from a documents JSONL (`--documents`).
export const persphereDatasetKind: DatasetKindParser = {
  name: 'persphere',
  corpus: true,
  countOrder: ['queries', 'claims', 'perspectives', 'documents'],
  parse: ({ file, text, documents, onRecord }) =>
    parsePersphereDataset(file, text, documents!.file, documents!.text, onRecord),
};
