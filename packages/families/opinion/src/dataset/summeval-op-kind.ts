import type { DatasetKindParser } from '@precis/ingest';
import { parseSummevalOpDataset } from './summeval-op.parser.js';

// SummEval-OP JSONL: one product a line, its reviews and rated reference summaries.
export const summevalOpDatasetKind: DatasetKindParser = {
  name: 'summeval-op',
  countOrder: ['documents', 'products', 'reviews', 'summaries'],
  parse: ({ file, text, onRecord }) => parseSummevalOpDataset(file, text, onRecord),
};
