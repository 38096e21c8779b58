import { lineColumnAt } from '@precis/text';
import { DatasetValidationError } from './errors.js';
import { checkJsonDepth, findNulField, nulIssue } from './limits.js';

// Parses JSON and turns a SyntaxError into a message with line and column, calling a cut-off
// input what it usually is: a truncated file. Nesting beyond the import limit and NUL characters
// (which PostgreSQL cannot store) are refused with their record and field.
export function parseJsonText(
  file: string,
  text: string,
  opts: { record?: string; firstLine?: number } = {},
): unknown {
  checkJsonDepth(file, text, opts);
  const value = parse(file, text, opts);
  const nul = findNulField(value);
  if (nul !== null) {
    // A whole-file document (KGDS) names its sample as the record: "[12]" of "[12].KGD[3].utterance".
    const split = opts.record ? null : /^(\[\d+\])\.?(.*)$/.exec(nul);
    throw new DatasetValidationError({
      file,
      record: opts.record ?? split?.[1],
      field: split ? split[2] || undefined : nul,
      ...nulIssue(),
    });
  }
  return value;
}

function parse(file: string, text: string, opts: { record?: string; firstLine?: number }): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const match = /at position (\d+)/.exec(message);
    const position = match ? Number(match[1]) : text.length;
    const truncated = position >= text.trimEnd().length;
    const { line, column } = lineColumnAt(text, position);
    const absoluteLine = (opts.firstLine ?? 1) + line - 1;
    const reason = message
      .replace(/ in JSON at position \d+.*$/, '')
      .replace(/ \(line \d+ column \d+\)$/, '');
    throw new DatasetValidationError({
      file,
      record: opts.record ?? `line ${absoluteLine}, column ${column}`,
      problem: truncated
        ? `invalid JSON: input ends unexpectedly (${reason}); the file looks truncated`
        : `invalid JSON: ${reason}${opts.record ? ` (column ${column})` : ''}`,
      hint: truncated
        ? 'the file was cut off; download or export it again'
        : 'fix the JSON syntax at that position (a missing comma, quote or bracket)',
    });
  }
}
