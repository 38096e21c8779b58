import { boundedTitle } from '../limits.js';
import type { JsonObject, ParsedDataset, ParsedDocument } from '../types.js';
import { asJsonObject, expectArray, expectObject, expectString, requireField } from '../validate.js';
import { corpusDataset, parseCorpusFile, recordId, uniqueRecords } from './corpus.parser.js';

const QUERY_FIELDS = ['id', 'text', 'relevant', 'metadata'];

// A user's retrieval corpus: queries JSONL `{id, text, relevant: [document ids], metadata?}` and
// documents JSONL `{id, text, title?}`; every relevant id must be a document.
export function parseRetrievalDataset(
  file: string,
  text: string,
  documentsFile: string,
  documentsText: string,
  onRecord?: (n: number) => void,
): ParsedDataset {
  const corpus = parseCorpusFile(documentsFile, documentsText, { textField: 'text', optional: ['title'] });
  const corpusIds = new Set(corpus.map((d) => d.externalId));
  const documents: ParsedDocument[] = [];
  let relevantTotal = 0;
  for (const { line, ctx, record, id } of uniqueRecords(file, text, QUERY_FIELDS, 'query')) {
    const query = expectString(ctx, requireField(ctx, record, 'text', ''), 'text', { nonEmpty: true });
    const relevant = expectArray(ctx, requireField(ctx, record, 'relevant', ''), 'relevant').map((raw, i) => {
      const docId = recordId(ctx, raw, `relevant[${i}]`);
      if (!corpusIds.has(docId))
        ctx.fail(
          `relevant[${i}]`,
          `id ${docId} is not a document of ${documentsFile}`,
          'name a document id of the documents file',
        );
      return docId;
    });
    if (relevant.length === 0)
      ctx.fail('relevant', 'is empty', 'list the ids of the documents relevant to the query');
    relevantTotal += new Set(relevant).size;
    const metadata: JsonObject =
      record.metadata === undefined ? {} : asJsonObject(expectObject(ctx, record.metadata, 'metadata'));
    documents.push({
      externalId: id,
      title: boundedTitle(query),
      text: query,
      data: { relevant: [...new Set(relevant)], sourceLine: line },
      metadata,
      chunks: [],
    });
    onRecord?.(documents.length);
  }
  return corpusDataset('retrieval', file, documents, corpus, {
    queries: documents.length,
    relevant: relevantTotal,
    documents: corpus.length,
  });
}
