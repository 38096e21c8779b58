import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { PortableFileError } from './portable-error.js';

export interface Line {
  no: number;
  text: string;
}

// The file's lines one at a time, gunzipped on the way when it is gzip (a file gunzipped by hand
// reads too); the stream pauses while the caller works on a line, so a file is never whole in memory.
// `file` names the file in errors; `path` is where it is read (default: `file`).
export async function* readLines(file: string, path = file): AsyncGenerator<Line> {
  const gzip = await isGzip(file, path);
  const raw = createReadStream(path);
  let source: Readable = raw;
  if (gzip) {
    const gunzip = createGunzip();
    raw.on('error', (err) => gunzip.destroy(err));
    source = raw.pipe(gunzip);
  }
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let no = 0;
  try {
    for await (const chunk of source) {
      pending += decoder.write(chunk as Buffer);
      let start = 0;
      for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n', start)) {
        yield { no: ++no, text: pending.slice(start, nl) };
        start = nl + 1;
      }
      pending = pending.slice(start);
    }
  } catch (err) {
    throw readError(file, no, err);
  } finally {
    source.destroy();
  }
  pending += decoder.end();
  if (pending.length > 0) yield { no: ++no, text: pending };
}

async function isGzip(file: string, path: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw readError(file, 0, err);
  }
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    if (bytesRead === 0) throw new PortableFileError(file, null, 'the file is empty: it holds no run');
    return buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

function readError(file: string, linesRead: number, err: unknown): Error {
  if (err instanceof PortableFileError) return err;
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return new PortableFileError(file, null, 'no such file');
  if (e.code === 'Z_BUF_ERROR' || /unexpected end of file/i.test(e.message ?? ''))
    return new PortableFileError(
      file,
      linesRead + 1,
      'the gzip data ends here: the file is truncated (copy it again, or export the run again)',
    );
  if (e.code?.startsWith('Z_'))
    return new PortableFileError(file, linesRead + 1, `the gzip data is damaged (${e.message})`);
  return new PortableFileError(file, null, `cannot be read (${e.message ?? String(err)})`);
}
