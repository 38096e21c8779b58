import { jsonlRecords } from '../jsonl-lines.js';
import { boundedParagraphs, boundedTitle, checkIdLength } from '../limits.js';
import type { JsonObject, ParsedDataset, ParsedDocument } from '../types.js';
import { asJsonObject, expectArray, expectObject, expectString, requireField } from '../validate.js';

const KNOWN_FIELDS = new Set(['id', 'text', 'references', 'metadata']);

// Generic JSONL: one document per line `{id, text, references?, metadata?}`; ids are unique.
export function parseJsonlDataset(file: string, text: string, onRecord?: (n: number) => void): ParsedDataset {
  const documents: ParsedDocument[] = [];
  const seen = new Map<string, number>();
  let references = 0;
  let paragraphs = 0;
  for (const { line, ctx, value } of jsonlRecords(file, text)) {
    const record = expectObject(ctx, value, undefined);
    for (const key of Object.keys(record)) {
      if (!KNOWN_FIELDS.has(key)) {
        ctx.fail(
          key,
          'unknown field',
          'allowed fields are id, text, references, metadata (put extras in metadata)',
        );
      }
    }
    const rawId = requireField(ctx, record, 'id', '');
    if (typeof rawId === 'number' && !Number.isInteger(rawId))
      ctx.fail('id', 'a numeric id must be an integer');
    const id = typeof rawId === 'number' ? String(rawId) : expectString(ctx, rawId, 'id', { nonEmpty: true });
    checkIdLength(ctx, id, 'id');
    const firstLine = seen.get(id);
    if (firstLine !== undefined) {
      ctx.fail(
        'id',
        `duplicate id ${JSON.stringify(id)} (first used on line ${firstLine})`,
        'give every record a unique id',
      );
    }
    seen.set(id, line);
    const body = expectString(ctx, requireField(ctx, record, 'text', ''), 'text', { nonEmpty: true });
    const refs =
      record.references === undefined
        ? []
        : expectArray(ctx, record.references, 'references').map((r, i) =>
            expectString(ctx, r, `references[${i}]`, { nonEmpty: true }),
          );
    const metadata: JsonObject =
      record.metadata === undefined ? {} : asJsonObject(expectObject(ctx, record.metadata, 'metadata'));
    const spans = boundedParagraphs(body, { file, record: () => `line ${line}`, field: 'text' });
    references += refs.length;
    paragraphs += spans.length;
    documents.push({
      externalId: id,
      title: boundedTitle(typeof metadata.title === 'string' ? metadata.title : null),
      text: body,
      data: { references: refs, sourceLine: line },
      metadata,
      chunks: spans.map((span, i) => ({
        kind: 'paragraph',
        text: span.text,
        sourceIndex: i,
        metadata: { start: span.start, end: span.end },
      })),
    });
    onRecord?.(documents.length);
  }
  return {
    kind: 'jsonl',
    file,
    documents,
    counts: { documents: documents.length, references, paragraphs },
    metadata: {},
  };
}
