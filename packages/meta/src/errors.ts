import { InvalidInputError } from '@precis/engine';

// A bad input file or request: says what was wrong, where (file, line, field) and how to fix it.
export class MetaInputError extends InvalidInputError {
  constructor(message: string, where: { file?: string; line?: number; field?: string } = {}) {
    const place = [
      where.file,
      where.line !== undefined ? `line ${where.line}` : undefined,
      where.field ? `field ${where.field}` : undefined,
    ]
      .filter(Boolean)
      .join(', ');
    super(place ? `${place}: ${message}` : message, where);
  }
}

// Calls `each` with every non-blank line of a JSONL file parsed as a JSON object; a line that is
// not one fails naming the file and line. `fail` raises a MetaInputError for that line.
export function forEachJsonObjectLine(
  file: string,
  text: string,
  shape: string,
  each: (
    obj: Record<string, unknown>,
    line: number,
    fail: (message: string, field?: string) => never,
  ) => void,
): void {
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    const fail = (message: string, field?: string): never => {
      throw new MetaInputError(message, { file, line, field });
    };
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      fail(`not valid JSON (${(err as Error).message})`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      fail(`each line must be a JSON object ${shape}`);
    }
    each(value as Record<string, unknown>, line, fail);
  });
}
