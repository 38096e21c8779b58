import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { checkLocalFile, FileAccessError, type FileAccessPolicy, readConfinedFile } from '../../src/index.js';

async function problemOf(
  path: string,
  policy: FileAccessPolicy,
): Promise<{ problem: string; message: string }> {
  try {
    await readConfinedFile(path, policy);
    return { problem: 'none', message: '' };
  } catch (err) {
    if (!(err instanceof FileAccessError)) throw err;
    return { problem: err.problem, message: err.message };
  }
}

describe('readConfinedFile', () => {
  let dir: string;
  let root: string;
  let policy: FileAccessPolicy;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'precis-files-'));
    root = join(dir, 'root');
    mkdirSync(join(root, 'books'), { recursive: true });
    writeFileSync(join(root, 'books/alice.txt'), 'Alice was beginning to get very tired.');
    writeFileSync(join(dir, 'secret.txt'), 'not for you');
    symlinkSync(join(dir, 'secret.txt'), join(root, 'books/link-out.txt'));
    symlinkSync(join(root, 'books/alice.txt'), join(root, 'link-in.txt'));
    symlinkSync('/etc', join(root, 'etc'));
    execFileSync('mkfifo', [join(root, 'pipe')]);
    policy = {
      root,
      maxBytes: 1000,
      timeoutMs: 5000,
      settings: { root: 'INGEST_ROOT', maxBytes: 'INGEST_MAX_FILE_BYTES' },
    };
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a regular file inside the root, by relative path or through a link that stays inside', async () => {
    const read = await readConfinedFile('books/alice.txt', policy);
    expect(read.bytes.toString()).toBe('Alice was beginning to get very tired.');
    const linked = await readConfinedFile('link-in.txt', policy);
    expect(linked.realPath).toBe(join(root, 'books/alice.txt'));
    expect(linked.fullPath).toBe(join(root, 'link-in.txt'));
    expect((await readConfinedFile(join(root, 'books/alice.txt'), policy)).bytes.length).toBe(38);
  });

  it('refuses paths outside the root with the same text whether or not the file exists', async () => {
    const shadow = await problemOf('/etc/shadow', policy);
    const missing = await problemOf('/etc/does-not-exist', policy);
    expect(shadow).toEqual({
      problem: 'outside-root',
      message:
        '/etc/shadow: outside the directory this server reads files from (INGEST_ROOT); put the file under it and pass a path relative to it',
    });
    expect(missing.message.replace('/etc/does-not-exist', '/etc/shadow')).toBe(shadow.message);
    expect((await problemOf('../secret.txt', policy)).problem).toBe('outside-root');
    expect((await problemOf('books/../../secret.txt', policy)).problem).toBe('outside-root');
  });

  it('reads nothing on a server with no root configured', async () => {
    expect(await problemOf('books/alice.txt', { ...policy, root: null })).toEqual({
      problem: 'outside-root',
      message:
        'books/alice.txt: this server reads no files: INGEST_ROOT is not set; set it to the directory holding the datasets',
    });
  });

  it('refuses symlinks that lead out of the root', async () => {
    expect((await problemOf('books/link-out.txt', policy)).problem).toBe('outside-root');
    expect(await problemOf('etc/passwd', policy)).toEqual({
      problem: 'outside-root',
      message:
        'etc/passwd: outside the directory this server reads files from (INGEST_ROOT); put the file under it and pass a path relative to it',
    });
  });

  it('refuses devices, named pipes and directories without opening them', async () => {
    const anywhere = { ...policy, root: '/' };
    expect(await problemOf('/dev/zero', anywhere)).toEqual({
      problem: 'not-regular',
      message: '/dev/zero: is a device, not a regular file; pass the path of a data file',
    });
    expect(await problemOf('pipe', policy)).toEqual({
      problem: 'not-regular',
      message: 'pipe: is a named pipe, not a regular file; pass the path of a data file',
    });
    expect((await problemOf('books', policy)).message).toBe(
      'books: is a directory, not a regular file; pass the path of a data file',
    );
  });

  it('refuses an over-size file naming the limit and its setting, and a missing file inside the root', async () => {
    writeFileSync(join(root, 'big.txt'), 'x'.repeat(1001));
    expect(await problemOf('big.txt', policy)).toEqual({
      problem: 'too-large',
      message:
        'big.txt: is 1001 bytes, over the limit of 1000 bytes (set by INGEST_MAX_FILE_BYTES); split the file or raise the limit',
    });
    expect(await problemOf('books/nope.txt', policy)).toEqual({
      problem: 'not-found',
      message: 'books/nope.txt: file not found; check the path',
    });
  });

  it('gives up on a read that takes longer than the timeout', async () => {
    writeFileSync(join(root, 'large.txt'), Buffer.alloc(64 * 1024 * 1024, 97));
    const slow = {
      ...policy,
      maxBytes: 128 * 1024 * 1024,
      timeoutMs: 1,
      settings: { timeoutMs: 'INGEST_READ_TIMEOUT_MS' },
    };
    expect(await problemOf('large.txt', slow)).toEqual({
      problem: 'timeout',
      message: 'large.txt: not read within 1 ms (INGEST_READ_TIMEOUT_MS); the storage is too slow or stalled',
    });
  });
});

describe('checkLocalFile', () => {
  it('accepts a regular file and refuses a device or an over-size file', () => {
    expect(() => checkLocalFile('/etc/hostname')).not.toThrow();
    expect(() => checkLocalFile('/dev/zero')).toThrow('/dev/zero: is a device, not a regular file');
    expect(() => checkLocalFile('/etc/hostname', 1)).toThrow(
      /^\/etc\/hostname: is \d+ bytes, over the limit of 1 bytes; split/,
    );
    expect(() => checkLocalFile('/no/such/file')).toThrow('/no/such/file: file not found; check the path');
  });
});
