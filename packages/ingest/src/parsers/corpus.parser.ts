import { DatasetValidationError } from '../errors.js';
import { jsonlRecords } from '../jsonl-lines.js';
import { boundedTitle, checkIdLength } from '../limits.js';
import type { ParsedCorpusDocument, ParsedDataset, ParsedDocument } from '../types.js';
import { expectObject, expectString, type RecordContext, requireField } from '../validate.js';

export interface CorpusFormat {
  // The field holding the document's text ('content' in PerSphere, 'text' in the generic format).
  textField: string;
  optional: string[];
}

// JSONL records with only the given fields and a unique id (`what` names them in errors).
export function* uniqueRecords(
  file: string,
  text: string,
  fields: readonly string[],
  what: 'document' | 'query',
): Generator<{ line: number; ctx: RecordContext; record: Record<string, unknown>; id: string }> {
  const seen = new Map<string, number>();
  for (const { line, ctx, value } of jsonlRecords(file, text)) {
    const record = expectObject(ctx, value, undefined);
    const unknown = Object.keys(record).find((k) => !fields.includes(k));
    if (unknown) ctx.fail(unknown, 'unknown field', `allowed fields are ${fields.join(', ')}`);
    const id = recordId(ctx, requireField(ctx, record, 'id', ''), 'id');
    const first = seen.get(id);
    if (first !== undefined)
      ctx.fail(
        'id',
        `duplicate ${what} id ${JSON.stringify(id)} (first used on line ${first})`,
        `give every ${what} a unique id`,
      );
    seen.set(id, line);
    yield { line, ctx, record, id };
  }
}

// The documents file of a retrieval dataset: one `{id, <textField>}` per line, ids unique.
export function parseCorpusFile(file: string, text: string, format: CorpusFormat): ParsedCorpusDocument[] {
  const docs: ParsedCorpusDocument[] = [];
  const fields = ['id', format.textField, ...format.optional];
  for (const { ctx, record, id } of uniqueRecords(file, text, fields, 'document')) {
    const body = expectString(ctx, requireField(ctx, record, format.textField, ''), format.textField, {
      nonEmpty: true,
    });
    const title = record.title === undefined ? null : expectString(ctx, record.title, 'title');
    docs.push({ externalId: id, title: boundedTitle(title), text: body });
  }
  if (docs.length === 0)
    throw new DatasetValidationError({
      file,
      problem: 'holds no document (every line is blank)',
      hint: 'give the documents file one JSON object per line',
    });
  return docs;
}

// An id given as a non-empty string or an integer (PerSphere numbers its documents), kept as text.
export function recordId(ctx: RecordContext, raw: unknown, field: string): string {
  if (typeof raw === 'number' && !Number.isInteger(raw)) ctx.fail(field, 'a numeric id must be an integer');
  const id = typeof raw === 'number' ? String(raw) : expectString(ctx, raw, field, { nonEmpty: true });
  checkIdLength(ctx, id, field);
  return id;
}

// A two-file dataset: its queries are the documents runs plan over, the corpus is what is ranked.
export function corpusDataset(
  kind: 'persphere' | 'retrieval',
  file: string,
  documents: ParsedDocument[],
  corpus: ParsedCorpusDocument[],
  counts: Record<string, number>,
): ParsedDataset {
  if (documents.length === 0)
    throw new DatasetValidationError({
      file,
      problem: 'holds no query (every line is blank)',
      hint: 'give the queries file one JSON object per line',
    });
  return { kind, file, documents, corpus, counts, metadata: {} };
}
