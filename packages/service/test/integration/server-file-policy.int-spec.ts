import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileAccessError, readConfinedFile } from '@precis/files';
import { serverFilePolicy } from '../../src/index.js';

const limits = { INGEST_MAX_FILE_BYTES: 1000, INGEST_READ_TIMEOUT_MS: 5000 };

// A server whose INGEST_ROOT is a symbolic link (e.g. a mounted volume's alias) reads the files
// under its target, named through the link or not, and nothing else.
describe('serverFilePolicy with INGEST_ROOT given through a link', () => {
  let dir: string;
  let target: string;
  let link: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'precis-root-link-'));
    target = join(dir, 'volume');
    mkdirSync(join(target, 'books'), { recursive: true });
    writeFileSync(join(target, 'books/alice.txt'), 'Alice was beginning to get very tired.');
    mkdirSync(join(dir, 'other'));
    writeFileSync(join(dir, 'other/secret.txt'), 'not for you');
    link = join(dir, 'datasets');
    symlinkSync(target, link);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file by relative path, by absolute path through the link and by its real path', async () => {
    const policy = serverFilePolicy({ INGEST_ROOT: link, ...limits });
    expect(policy.realRoot).toBe(target);
    for (const path of ['books/alice.txt', join(link, 'books/alice.txt'), join(target, 'books/alice.txt')])
      expect((await readConfinedFile(path, policy)).realPath).toBe(join(target, 'books/alice.txt'));
  });

  it('refuses a file outside the target as before, and keeps the root it resolved at start', async () => {
    const policy = serverFilePolicy({ INGEST_ROOT: link, ...limits });
    const secret = join(dir, 'other/secret.txt');
    await expect(readConfinedFile(secret, policy)).rejects.toThrow(
      new FileAccessError(
        'outside-root',
        secret,
        'outside the directory this server reads files from (INGEST_ROOT); put the file under it and pass a path relative to it',
      ),
    );
    // Pointing the link elsewhere later does not move the root of a running server.
    unlinkSync(link);
    symlinkSync(join(dir, 'other'), link);
    const later = serverFilePolicy({ INGEST_ROOT: link, ...limits });
    expect(later.realRoot).toBe(target);
    await expect(readConfinedFile('secret.txt', later)).rejects.toThrow('outside the directory');
  });
});
