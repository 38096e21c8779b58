import { constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

// Every file a server reads for a caller (ImportDataset, dataset paths in a CreateRun spec) and
// every local file the CLI reads goes through these checks, in this order: inside the root (if
// any) before touching the file system, inside it again after resolving symlinks, a regular file
// (devices, pipes and directories are refused before opening: opening a FIFO blocks), at most
// maxBytes, read as a stream within timeoutMs.

export interface FileAccessPolicy {
  // Absolute directory every path must lie in, after symlinks are resolved; undefined: no root
  // (the CLI's own files); null: a server with no root configured, which reads no file at all.
  root?: string | null;
  // The root with its symlinks resolved, when the caller resolved it once (a server, at start);
  // otherwise it is resolved per file.
  realRoot?: string;
  maxBytes: number;
  timeoutMs: number;
  // Names the setting of each limit in messages, e.g. { root: 'INGEST_ROOT', maxBytes: '...' }.
  settings?: { root?: string; maxBytes?: string; timeoutMs?: string };
}

export type FileAccessProblem =
  | 'outside-root'
  | 'not-found'
  | 'not-regular'
  | 'too-large'
  | 'timeout'
  | 'unreadable';

export const DEFAULT_MAX_FILE_BYTES = 512 * 1024 * 1024;
export const DEFAULT_READ_TIMEOUT_MS = 60_000;

// `reason` is the message without the path, for callers that name the file their own way.
export class FileAccessError extends Error {
  constructor(
    readonly problem: FileAccessProblem,
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'FileAccessError';
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

function outside(path: string, policy: FileAccessPolicy): FileAccessError {
  // The same text whether or not the file exists: nothing about it is revealed.
  return new FileAccessError(
    'outside-root',
    path,
    `outside the directory this server reads files from (${policy.settings?.root ?? 'the file root'}); put the file under it and pass a path relative to it`,
  );
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;
}

function tooLarge(path: string, size: number | null, policy: FileAccessPolicy): FileAccessError {
  const setting = policy.settings?.maxBytes ? ` (set by ${policy.settings.maxBytes})` : '';
  return new FileAccessError(
    'too-large',
    path,
    `${size === null ? 'more than' : `is ${sizeText(size)}, over`} the limit of ${sizeText(policy.maxBytes)}${setting}; split the file or raise the limit`,
  );
}

function kindOf(st: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function notRegular(path: string, what: string): FileAccessError {
  return new FileAccessError(
    'not-regular',
    path,
    `is ${what}, not a regular file; pass the path of a data file`,
  );
}

function fsError(path: string, err: unknown): FileAccessError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return new FileAccessError('not-found', path, 'file not found; check the path');
  return new FileAccessError(
    'unreadable',
    path,
    `cannot be read (${code ?? 'error'}); check its permissions`,
  );
}

const rethrowAs = (path: string) => (err: unknown) => {
  throw fsError(path, err);
};

// Where `path` leads (absolute, and with symlinks resolved), checked against the root before and
// after resolving them.
async function locate(path: string, policy: FileAccessPolicy): Promise<{ full: string; real: string }> {
  const root = policy.root;
  if (root === null)
    throw new FileAccessError(
      'outside-root',
      path,
      `this server reads no files: ${policy.settings?.root ?? 'its file root'} is not set; set it to the directory holding the datasets`,
    );
  if (!root) {
    const full = resolve(path);
    return { full, real: await realpath(full).catch(rethrowAs(path)) };
  }
  const realRoot = policy.realRoot ?? (await realpath(root).catch(rethrowAs(path)));
  // A path may name the root as configured or as resolved (a root given through a link).
  const full = resolve(root, path);
  if (!inside(resolve(root), full) && !inside(realRoot, full)) throw outside(path, policy);
  const real = await realpath(full).catch(rethrowAs(path));
  if (!inside(realRoot, real)) throw outside(path, policy);
  return { full, real };
}

// The whole file, within the policy's limits.
export async function readConfinedFile(
  path: string,
  policy: FileAccessPolicy,
): Promise<{ bytes: Buffer; fullPath: string; realPath: string }> {
  const { full, real } = await locate(path, policy);
  const st = await stat(real).catch((err: unknown) => {
    throw fsError(path, err);
  });
  if (!st.isFile()) throw notRegular(path, kindOf(st));
  if (st.size > policy.maxBytes) throw tooLarge(path, st.size, policy);
  // O_NOFOLLOW and the inode check catch a file swapped for a link or another file meanwhile.
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
    (err: unknown) => {
      throw fsError(path, err);
    },
  );
  try {
    const opened = await handle.stat();
    if (!opened.isFile() || opened.ino !== st.ino || opened.dev !== st.dev)
      throw new FileAccessError('unreadable', path, 'changed while being opened; try again');
    return { bytes: await readStream(path, handle, policy), fullPath: full, realPath: real };
  } finally {
    await handle.close().catch(() => {});
  }
}

async function readStream(
  path: string,
  handle: import('node:fs/promises').FileHandle,
  policy: FileAccessPolicy,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  const signal = AbortSignal.timeout(policy.timeoutMs);
  const stream = handle.createReadStream({ autoClose: false, signal });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.length;
      // The file may grow after the size check.
      if (total > policy.maxBytes) throw tooLarge(path, null, policy);
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof FileAccessError) throw err;
    if (signal.aborted) {
      const setting = policy.settings?.timeoutMs ? ` (${policy.settings.timeoutMs})` : '';
      throw new FileAccessError(
        'timeout',
        path,
        `not read within ${policy.timeoutMs} ms${setting}; the storage is too slow or stalled`,
      );
    }
    throw fsError(path, err);
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, total);
}

// For small local files read synchronously (specs, registries, templates): the regular-file and
// size checks, no root.
export function checkLocalFile(path: string, maxBytes: number = DEFAULT_MAX_FILE_BYTES): void {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(realpathSync(path));
  } catch (err) {
    throw fsError(path, err);
  }
  if (!st.isFile()) throw notRegular(path, kindOf(st));
  if (st.size > maxBytes) throw tooLarge(path, st.size, { maxBytes, timeoutMs: 0 });
}

// A small local text file (a spec, a registry, a templates or ratings file) after the checks.
export function readLocalText(path: string, maxBytes: number = DEFAULT_MAX_FILE_BYTES): string {
  checkLocalFile(path, maxBytes);
  return readFileSync(path, 'utf8');
}

// Why a read failed, without the path (for messages that already name the file).
export function readErrorReason(err: unknown): string {
  if (err instanceof FileAccessError) return err.reason;
  return (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
}
