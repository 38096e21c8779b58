import { z } from 'zod';

// The registry's fields are checked one by one with zod schemas, so that every wrong field is
// reported (in the order the entry is read) and read as its default for the checks after it.

export type Fail = (field: string, message: string) => void;
export type Check = <T>(
  field: string,
  value: unknown,
  schema: z.ZodType<T>,
  message: Message,
) => T | undefined;
type Message = string | ((value: unknown) => string);

export const show = (v: unknown) => (typeof v === 'string' ? `"${v}"` : JSON.stringify(v));

// "<text> (got <the value as written>)".
export const got =
  (text: string): Message =>
  (value) =>
    `${text} (got ${show(value)})`;

// A YAML/JSON map: not a list, not a scalar.
export const fieldMap = z.record(z.string(), z.unknown());
export const nonEmptyText = z.string().refine((s) => s.trim() !== '');

// A value the schema refuses is reported through `fail` with `message` and read as undefined.
export function checker(fail: Fail): Check {
  return (field, value, schema, message) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    fail(field, typeof message === 'string' ? message : message(value));
    return undefined;
  };
}
