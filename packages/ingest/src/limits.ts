import { jsonDepthOverflow, lineColumnAt, splitParagraphSpans, type TextSpan } from '@precis/text';
import { DatasetValidationError } from './errors.js';
import { fieldPath, type RecordContext } from './validate.js';

// Bounds on what an import accepts, each failing with the file, record and field that broke it
// (never a stack overflow or a database error retried later).
export const IMPORT_LIMITS = {
  // Document ids (a JSONL `id`, a file name): stored, shown and used in references.
  idChars: 200,
  // Titles are for display; longer ones are cut, not refused.
  titleChars: 1000,
  // One paragraph (text between blank lines): a larger one is a file without paragraph breaks.
  paragraphChars: 1_000_000,
  // Nesting of JSON arrays and objects: datasets need under 10; metadata may use the rest.
  jsonDepth: 64,
} as const;

const NUL = '\u0000';

// PostgreSQL cannot store U+0000 in text or jsonb: refused where it appears in the file.
export function checkNoNulInFile(file: string, text: string): void {
  const at = text.indexOf(NUL);
  if (at < 0) return;
  const { line, column } = lineColumnAt(text, at);
  throw new DatasetValidationError({
    file,
    record: `line ${line}`,
    problem: `holds a NUL character (U+0000) at column ${column}, which cannot be stored`,
    hint: "remove NUL bytes, e.g. `tr -d '\\000' < in > out`",
  });
}

// Linear scan of JSON text for nesting deeper than the limit, before anything recurses into it.
export function checkJsonDepth(
  file: string,
  text: string,
  opts: { record?: string; firstLine?: number },
): void {
  const at = jsonDepthOverflow(text, IMPORT_LIMITS.jsonDepth);
  if (at < 0) return;
  const { line, column } = lineColumnAt(text, at);
  throw new DatasetValidationError({
    file,
    record: opts.record ?? `line ${(opts.firstLine ?? 1) + line - 1}`,
    problem: `JSON nested more than ${IMPORT_LIMITS.jsonDepth} levels deep (column ${column})`,
    hint: 'flatten the structure; datasets and their metadata need only a few levels',
  });
}

// The first string or key holding U+0000 in a parsed JSON value, as a field path; iterative, so
// any depth the depth check allowed is safe.
export function findNulField(value: unknown): string | null {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes(NUL)) return path || '(value)';
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], fieldPath(path, i)]);
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const at = fieldPath(path, key);
        if (key.includes(NUL)) return at;
        stack.push([child, at]);
      }
    }
  }
  return null;
}

export function nulIssue(): { problem: string; hint: string } {
  return {
    problem: 'holds a NUL character (U+0000), which cannot be stored',
    hint: 'remove the \\u0000 escapes from the file',
  };
}

export function checkIdLength(ctx: RecordContext, id: string, field: string): void {
  if (id.length > IMPORT_LIMITS.idChars)
    ctx.fail(
      field,
      `is ${id.length} characters long; ids may have at most ${IMPORT_LIMITS.idChars}`,
      'use a shorter id',
    );
}

export function boundedTitle(title: string | null): string | null {
  return title && title.length > IMPORT_LIMITS.titleChars
    ? `${title.slice(0, IMPORT_LIMITS.titleChars - 1)}…`
    : title;
}

// Paragraph spans of a text, refusing a paragraph over the limit at the line it starts on
// (`base` = the line of the text's first character in the file).
export function boundedParagraphs(
  text: string,
  where: { file: string; record?: (line: number) => string; field?: string; base?: number },
): TextSpan[] {
  const spans = splitParagraphSpans(text);
  const huge = spans.find((s) => s.text.length > IMPORT_LIMITS.paragraphChars);
  if (huge) {
    const line = (where.base ?? 1) + lineColumnAt(text, huge.start).line - 1;
    throw new DatasetValidationError({
      file: where.file,
      record: where.record ? where.record(line) : `line ${line}`,
      field: where.field,
      problem: `a paragraph of ${huge.text.length.toLocaleString('en-US')} characters without a blank line; at most ${IMPORT_LIMITS.paragraphChars.toLocaleString('en-US')} are accepted`,
      hint: 'separate paragraphs with blank lines',
    });
  }
  return spans;
}
