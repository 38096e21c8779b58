import type { DatasetKindParser } from '@precis/ingest';
import { parseQmsumDataset } from './qmsum.parser.js';

// QMSum JSONL: one meeting a line, its speaker turns and general query answers.
export const qmsumDatasetKind: DatasetKindParser = {
  name: 'qmsum',
  countOrder: ['documents', 'utterances', 'references'],
  parse: ({ file, text, onRecord }) => parseQmsumDataset(file, text, onRecord),
};
