import {
  expectArray,
  expectObject,
  expectString,
  jsonlRecords,
  type ParsedChunk,
  type ParsedDataset,
  type ParsedDocument,
  type RecordContext,
  requireField,
} from '@precis/ingest';

const FIELDS = ['topic_list', 'general_query_list', 'specific_query_list', 'meeting_transcripts'];

function queryList(ctx: RecordContext, record: Record<string, unknown>, field: string) {
  return expectArray(ctx, requireField(ctx, record, field, ''), field).map((raw, i) => {
    const q = expectObject(ctx, raw, `${field}[${i}]`);
    return {
      query: expectString(ctx, requireField(ctx, q, 'query', `${field}[${i}]`), `${field}[${i}].query`, {
        nonEmpty: true,
      }),
      answer: expectString(ctx, requireField(ctx, q, 'answer', `${field}[${i}]`), `${field}[${i}].answer`, {
        nonEmpty: true,
      }),
    };
  });
}

function turns(ctx: RecordContext, record: Record<string, unknown>): ParsedChunk[] {
  const list = expectArray(ctx, requireField(ctx, record, 'meeting_transcripts', ''), 'meeting_transcripts');
  if (list.length === 0)
    ctx.fail('meeting_transcripts', 'has no speaker turn', 'give the meeting its transcript');
  return list.map((raw, i) => {
    const base = `meeting_transcripts[${i}]`;
    const t = expectObject(ctx, raw, base);
    const speaker = expectString(ctx, requireField(ctx, t, 'speaker', base), `${base}.speaker`, {
      nonEmpty: true,
    });
    const content = expectString(ctx, requireField(ctx, t, 'content', base), `${base}.content`);
    return { kind: 'utterance', text: content, sourceIndex: i, metadata: { speaker } };
  });
}

// QMSum (METHODS.md §5 evaluation data): one meeting per line, a document of speaker turns; the
// answers of its general queries are its reference summaries (metrics take the best match).
export function parseQmsumDataset(file: string, text: string, onRecord?: (n: number) => void): ParsedDataset {
  const documents: ParsedDocument[] = [];
  let utterances = 0;
  let references = 0;
  for (const { line, ctx, value } of jsonlRecords(file, text)) {
    const record = expectObject(ctx, value, undefined);
    const unknown = Object.keys(record).find((k) => !FIELDS.includes(k));
    if (unknown) ctx.fail(unknown, 'unknown field', `allowed fields are ${FIELDS.join(', ')}`);
    const general = queryList(ctx, record, 'general_query_list');
    if (general.length === 0)
      ctx.fail(
        'general_query_list',
        'is empty',
        'a meeting needs a general query whose answer is its reference summary',
      );
    const specific =
      record.specific_query_list === undefined ? [] : queryList(ctx, record, 'specific_query_list');
    const chunks = turns(ctx, record);
    utterances += chunks.length;
    references += general.length;
    documents.push({
      externalId: `meeting-${documents.length + 1}`,
      title: null,
      text: chunks.map((c) => `${(c.metadata as { speaker: string }).speaker}: ${c.text}`).join('\n\n'),
      data: {
        references: general.map((g) => g.answer),
        generalQueries: general,
        specificQueries: specific,
        sourceLine: line,
      },
      metadata: {},
      chunks,
    });
    onRecord?.(documents.length);
  }
  return {
    kind: 'qmsum',
    file,
    documents,
    counts: { documents: documents.length, utterances, references },
    metadata: {},
  };
}
