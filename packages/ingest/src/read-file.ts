import { createHash } from 'node:crypto';
import {
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_READ_TIMEOUT_MS,
  type FileAccessPolicy,
  readConfinedFile,
} from '@precis/files';
import { DatasetValidationError } from './errors.js';

export interface DecodedFile {
  bytes: Buffer;
  sha256: string;
  // UTF-8 text with a leading BOM removed and CRLF/CR line ends turned into LF.
  text: string;
}

export const LOCAL_FILE_POLICY: FileAccessPolicy = {
  maxBytes: DEFAULT_MAX_FILE_BYTES,
  timeoutMs: DEFAULT_READ_TIMEOUT_MS,
};

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

// The file's bytes under a file-access policy (a server's root and limits; by default the local
// regular-file, size and time checks). Refusals are FileAccessError, naming the path.
export async function readDatasetBytes(
  file: string,
  access: FileAccessPolicy = LOCAL_FILE_POLICY,
): Promise<Buffer> {
  return (await readConfinedFile(file, access)).bytes;
}

export function decodeDatasetBytes(file: string, bytes: Buffer): DecodedFile {
  let text: string;
  try {
    // fatal: reject invalid byte sequences instead of silently inserting U+FFFD.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const offset = firstInvalidUtf8Offset(bytes);
    const line = offset === -1 ? undefined : lineAtByte(bytes, offset);
    throw new DatasetValidationError({
      file,
      record: line === undefined ? undefined : `line ${line}`,
      problem: `is not valid UTF-8${offset === -1 ? '' : ` (invalid byte 0x${bytes[offset]!.toString(16).padStart(2, '0')} at byte offset ${offset})`}`,
      hint: 're-encode the file as UTF-8, e.g. `iconv -f latin1 -t utf-8 in.txt > out.txt`',
    });
  }
  text = text.replace(/\r\n?/g, '\n');
  if (text.trim() === '') {
    throw new DatasetValidationError({
      file,
      problem: bytes.length === 0 ? 'file is empty' : 'file contains only whitespace',
      hint: 'check that the right file was given and that it was fully written',
    });
  }
  return { bytes, sha256: sha256Hex(bytes), text };
}

export async function readDatasetFile(file: string, access?: FileAccessPolicy): Promise<DecodedFile> {
  return decodeDatasetBytes(file, await readDatasetBytes(file, access));
}

// Offset of the first byte that breaks UTF-8, or -1.
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    // A sequence cut off by the end of the file.
    if (i + need >= bytes.length) return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

function lineAtByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}
