import type { DatasetKindParser } from '@precis/ingest';
import { parseKgdsDataset } from './kgds.parser.js';

// KGDS.json: articles with their gold paragraphs, utterances, opinions and typed facts.
export const kgdsDatasetKind: DatasetKindParser = {
  name: 'kgds',
  countOrder: [
    'documents',
    'paragraphs',
    'supportingParagraphs',
    'utterances',
    'opinions',
    'keyFacts',
    'nonSupportingFacts',
  ],
  parse: ({ file, text, onRecord }) => parseKgdsDataset(file, text, onRecord),
};
