import { DatasetValidationError } from './errors.js';
import type { JsonObject, JsonValue } from './types.js';

// Where in a dataset file a value came from; every check failure names it.
export class RecordContext {
  constructor(
    readonly file: string,
    readonly record: string,
  ) {}

  fail(field: string | undefined, problem: string, hint?: string): never {
    throw new DatasetValidationError({ file: this.file, record: this.record, field, problem, hint });
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function fieldPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (IDENTIFIER.test(key)) return base ? `${base}.${key}` : key;
  return `${base}[${JSON.stringify(key)}]`;
}

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `a string (${JSON.stringify(truncate(value, 30))})`;
  return `a ${typeof value} (${String(value)})`;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function expectObject(
  ctx: RecordContext,
  value: unknown,
  field: string | undefined,
): Record<string, unknown> {
  if (!isPlainObject(value)) ctx.fail(field, `expected an object, got ${describeType(value)}`);
  return value;
}

export function requireField(
  ctx: RecordContext,
  obj: Record<string, unknown>,
  key: string,
  base: string,
  hint?: string,
): unknown {
  const value = obj[key];
  if (value === undefined) {
    ctx.fail(fieldPath(base, key), 'missing required field', hint ?? `add "${key}" to the record`);
  }
  return value;
}

export function expectArray(ctx: RecordContext, value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) ctx.fail(field, `expected an array, got ${describeType(value)}`);
  return value;
}

export function expectString(
  ctx: RecordContext,
  value: unknown,
  field: string,
  opts: { nonEmpty?: boolean } = {},
): string {
  if (typeof value !== 'string') ctx.fail(field, `expected a string, got ${describeType(value)}`);
  if (opts.nonEmpty && value.trim() === '') ctx.fail(field, 'must not be empty');
  return value;
}

export function expectInteger(ctx: RecordContext, value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    ctx.fail(field, `expected an integer, got ${describeType(value)}`);
  }
  return value;
}

export function expectNumber(ctx: RecordContext, value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    ctx.fail(field, `expected a number, got ${describeType(value)}`);
  }
  return value;
}

// A JSON.parse result is already JSON; this narrows unknown to the stored type.
export function asJsonObject(value: Record<string, unknown>): JsonObject {
  return value as JsonObject;
}

export function asJsonValue(value: unknown): JsonValue {
  return value as JsonValue;
}
