// The byte form of a built index: a length-prefixed JSON header (ids, vocabulary, options) then
// typed arrays, each 8-byte aligned; one copy-free view per array when read back.
export type PackedArray = Float64Array | Float32Array | Int32Array;
const KINDS = { f64: Float64Array, f32: Float32Array, i32: Int32Array } as const;
type Kind = keyof typeof KINDS;

function kindOf(a: PackedArray): Kind {
  if (a instanceof Float64Array) return 'f64';
  if (a instanceof Float32Array) return 'f32';
  return 'i32';
}

const align8 = (n: number) => Math.ceil(n / 8) * 8;

export function pack(header: Record<string, unknown>, arrays: Record<string, PackedArray>): Uint8Array {
  const layout = Object.entries(arrays).map(([name, a]) => ({ name, kind: kindOf(a), length: a.length }));
  const json = new TextEncoder().encode(JSON.stringify({ header, layout }));
  let size = align8(4 + json.length);
  for (const a of Object.values(arrays)) size += align8(a.byteLength);
  const out = new Uint8Array(size);
  new DataView(out.buffer).setUint32(0, json.length, true);
  out.set(json, 4);
  let offset = align8(4 + json.length);
  for (const a of Object.values(arrays)) {
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), offset);
    offset += align8(a.byteLength);
  }
  return out;
}

export function unpack<H>(bytes: Uint8Array): { header: H; arrays: Record<string, PackedArray> } {
  // Typed-array views need an aligned offset: copy once when the buffer slice is not aligned.
  const buf = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const length = new DataView(buf.buffer, buf.byteOffset, 4).getUint32(0, true);
  const { header, layout } = JSON.parse(new TextDecoder().decode(buf.subarray(4, 4 + length))) as {
    header: H;
    layout: { name: string; kind: Kind; length: number }[];
  };
  const arrays: Record<string, PackedArray> = {};
  let offset = buf.byteOffset + align8(4 + length);
  for (const { name, kind, length: n } of layout) {
    const Ctor = KINDS[kind];
    arrays[name] = new Ctor(buf.buffer as ArrayBuffer, offset, n);
    offset += align8(n * Ctor.BYTES_PER_ELEMENT);
  }
  return { header, arrays };
}
