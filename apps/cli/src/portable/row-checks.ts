import { UUID_PATTERN } from './portable-format.js';
import type { TableColumn } from './table-columns.js';

// What is wrong with one field of a row, or null: checked here so that an error names the line
// and field instead of a statement of 500 rows.
export function fieldProblem(column: TableColumn, value: unknown): string | null {
  if (value === null) return column.required ? 'is null, but this column needs a value' : null;
  const type = column.type;
  const got = describe(value);
  if (type === 'uuid')
    return typeof value === 'string' && UUID_PATTERN.test(value) ? null : `expected a uuid, got ${got}`;
  if (type === 'text') return typeof value === 'string' ? null : `expected text, got ${got}`;
  if (type === 'boolean') return typeof value === 'boolean' ? null : `expected true or false, got ${got}`;
  if (type === 'integer' || type === 'smallint')
    return Number.isInteger(value) ? null : `expected an integer, got ${got}`;
  if (type === 'bigint' || type.startsWith('numeric')) return decimalProblem(value, got);
  if (type === 'double precision' || type === 'real')
    return typeof value === 'number' || ['NaN', 'Infinity', '-Infinity'].includes(value as string)
      ? null
      : `expected a number, got ${got}`;
  if (type.startsWith('timestamp'))
    return typeof value === 'string' && !Number.isNaN(Date.parse(value))
      ? null
      : `expected a timestamp, got ${got}`;
  // jsonb (any JSON value) and types this format does not describe: the database checks them.
  return null;
}

function decimalProblem(value: unknown, got: string): string | null {
  const text = typeof value === 'number' ? String(value) : value;
  return typeof text === 'string' && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text)
    ? null
    : `expected a decimal number, got ${got}`;
}

function describe(value: unknown): string {
  const json = JSON.stringify(value);
  return json.length > 40 ? `${json.slice(0, 37)}...` : json;
}
