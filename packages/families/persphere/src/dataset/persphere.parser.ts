import {
  boundedTitle,
  corpusDataset,
  expectArray,
  expectString,
  type JsonObject,
  type ParsedDataset,
  type ParsedDocument,
  parseCorpusFile,
  type RecordContext,
  recordId,
  requireField,
  uniqueRecords,
} from '@precis/ingest';

const QUERY_FIELDS = ['id', 'title', 't1', 't2', 'response1', 'response2', 'favor_ids', 'against_ids'];
// Claim i's statement, perspectives and evidence ids (one per perspective) in the source.
const CLAIM_FIELDS = [
  { statement: 't1', perspectives: 'response1', evidence: 'favor_ids' },
  { statement: 't2', perspectives: 'response2', evidence: 'against_ids' },
] as const;

export interface PersphereClaimData {
  statement: string;
  perspectives: { text: string; evidence: string[] }[];
}

// PerSphere (METHODS.md §3): queries JSONL (`title` = the query, two claims t1/t2 with their
// perspectives response1/2 and one evidence document id per perspective) + documents JSONL.
export function parsePersphereDataset(
  file: string,
  text: string,
  documentsFile: string,
  documentsText: string,
  onRecord?: (n: number) => void,
): ParsedDataset {
  const corpus = parseCorpusFile(documentsFile, documentsText, { textField: 'content', optional: ['title'] });
  const corpusIds = new Set(corpus.map((d) => d.externalId));
  const documents: ParsedDocument[] = [];
  let perspectives = 0;
  for (const { line, ctx, record, id } of uniqueRecords(file, text, QUERY_FIELDS, 'query')) {
    const query = expectString(ctx, requireField(ctx, record, 'title', ''), 'title', { nonEmpty: true });
    const claims = CLAIM_FIELDS.map((f) => parseClaim(ctx, record, f, corpusIds, documentsFile));
    perspectives += claims.reduce((n, c) => n + c.perspectives.length, 0);
    documents.push({
      externalId: id,
      title: boundedTitle(query),
      text: query,
      data: { claims: claims as unknown as JsonObject[], sourceLine: line },
      metadata: {},
      chunks: [],
    });
    onRecord?.(documents.length);
  }
  return corpusDataset('persphere', file, documents, corpus, {
    queries: documents.length,
    claims: documents.length * 2,
    perspectives,
    documents: corpus.length,
  });
}

function parseClaim(
  ctx: RecordContext,
  record: Record<string, unknown>,
  f: (typeof CLAIM_FIELDS)[number],
  corpusIds: ReadonlySet<string>,
  documentsFile: string,
): PersphereClaimData {
  const statement = expectString(ctx, requireField(ctx, record, f.statement, ''), f.statement, {
    nonEmpty: true,
  });
  const texts = expectArray(ctx, requireField(ctx, record, f.perspectives, ''), f.perspectives).map((p, i) =>
    expectString(ctx, p, `${f.perspectives}[${i}]`, { nonEmpty: true }),
  );
  if (texts.length === 0)
    ctx.fail(f.perspectives, 'has no perspective', 'give each claim at least one perspective');
  const ids = expectArray(ctx, requireField(ctx, record, f.evidence, ''), f.evidence);
  if (ids.length !== texts.length)
    ctx.fail(
      f.evidence,
      `has ${ids.length} evidence id${ids.length === 1 ? '' : 's'} for the ${texts.length} perspective${texts.length === 1 ? '' : 's'} of ${f.perspectives}`,
      `give one evidence document id per perspective, in the order of ${f.perspectives}`,
    );
  const evidence = ids.map((raw, i) => {
    const docId = recordId(ctx, raw, `${f.evidence}[${i}]`);
    if (!corpusIds.has(docId))
      ctx.fail(
        `${f.evidence}[${i}]`,
        `evidence id ${docId} is not a document of ${documentsFile}`,
        'name a document id of the documents file',
      );
    return docId;
  });
  return { statement, perspectives: texts.map((t, i) => ({ text: t, evidence: [evidence[i]!] })) };
}
