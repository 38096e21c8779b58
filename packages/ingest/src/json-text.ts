import { DatasetValidationError } from './errors.js';
import { lineColumnAt } from './read-file.js';

// Parses JSON and turns a SyntaxError into a message with line and column, calling a cut-off
// input what it usually is: a truncated file.
export function parseJsonText(
  file: string,
  text: string,
  opts: { record?: string; firstLine?: number } = {},
): unknown {
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
