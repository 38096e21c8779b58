import { parseJsonText } from './json-text.js';
import { RecordContext } from './validate.js';

export interface JsonlRecord {
  line: number;
  ctx: RecordContext;
  value: unknown;
}

// Non-blank lines of a JSONL file, each parsed on its own so errors name the line.
export function* jsonlRecords(file: string, text: string): Generator<JsonlRecord> {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    const line = i + 1;
    const value = parseJsonText(file, raw, { record: `line ${line}` });
    yield { line, ctx: new RecordContext(file, `line ${line}`), value };
  }
}
