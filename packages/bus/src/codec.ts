import type { BusData, JsonValue } from './types.js';

// Tells the receiver whether the body is raw bytes or JSON text.
export const HEADER_ENCODING = 'Precis-Encoding';
// Set on a reply whose handler threw; the body is the error message.
export const HEADER_ERROR = 'Precis-Error';

export type Encoding = 'bin' | 'json';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeData(data: BusData): { body: Uint8Array; encoding: Encoding } {
  if (data instanceof Uint8Array) return { body: data, encoding: 'bin' };
  return { body: encoder.encode(JSON.stringify(data)), encoding: 'json' };
}

export function decodeData(body: Uint8Array, encoding: string | undefined): BusData {
  if (encoding === 'bin') return body;
  if (body.length === 0) return null;
  return JSON.parse(decoder.decode(body)) as JsonValue;
}

export function encodeText(text: string): Uint8Array {
  return encoder.encode(text);
}

export function decodeText(body: Uint8Array): string {
  return decoder.decode(body);
}

/** Copies JSON-able data so an in-process receiver cannot mutate the sender's object (as over the wire). */
export function cloneData(data: BusData): BusData {
  if (data instanceof Uint8Array) return data.slice();
  return JSON.parse(JSON.stringify(data)) as JsonValue;
}
