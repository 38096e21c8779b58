// One file-access policy for every path that reaches a server: ImportDataset (read by the
// ingestion service) and dataset paths in a CreateRun spec (read by the gateway) are confined to
// INGEST_ROOT after resolving symlinks, regular files only, size-limited, and refused at once with
// nothing disclosed about files outside the root. Needs the build: `npx turbo run build`.

import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Answer, answer, authorized, type GatewayStack, startGatewayStack } from './gateway-support.js';
import { tempDir } from './runs-support.js';

// Long enough for a slow machine, short enough that a read blocked on a pipe fails the test.
const DEADLINE_MS = 10_000;

describe('file access through the gateway', () => {
  const tmp = tempDir('precis-files-e2e-');
  const root = join(tmp.dir, 'root');
  let stack: GatewayStack;

  const outcome = ({ code, details }: Answer) => ({ code, details });
  const importFile = async (path: string, name = 'refused') =>
    outcome(
      await answer(
        authorized(stack.key),
        (md, o, cb) =>
          stack.ingestion.importDataset({ kind: 'text', path, datasetName: name, replace: false }, md, o, cb),
        DEADLINE_MS,
      ),
    );
  const createRunOn = async (path: string) => {
    const spec = {
      name: 'files',
      datasets: [{ name: 'book', kind: 'text', path }],
      systems: [{ name: 'tr', strategy: 'hierarchical', engine: 'textrank' }],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    };
    return outcome(
      await answer(
        authorized(stack.key),
        (md, o, cb) =>
          stack.runs.createRun(
            { specJson: JSON.stringify(spec), fresh: true, skipPreflight: false },
            md,
            o,
            cb,
          ),
        DEADLINE_MS,
      ),
    );
  };

  beforeAll(async () => {
    mkdirSync(join(root, 'books'), { recursive: true });
    writeFileSync(
      join(root, 'books/story.md'),
      'Mara keeps the lighthouse.\n\nA storm comes in the night.\n',
    );
    writeFileSync(join(root, 'big.md'), 'word '.repeat(400));
    symlinkSync('/etc/passwd', join(root, 'books/passwd.md'));
    execFileSync('mkfifo', [join(root, 'pipe.md')]);
    stack = await startGatewayStack({
      name: 'gateway_files',
      withIngestion: true,
      env: { INGEST_ROOT: root, INGEST_MAX_FILE_BYTES: '1000' },
    });
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
    tmp.remove();
  }, 30_000);

  const outside = (path: string) =>
    `${path}: outside the directory this server reads files from (INGEST_ROOT); put the file under it and pass a path relative to it`;

  it('imports a file under the root, by relative or absolute path', async () => {
    expect(await importFile('books/story.md', 'story')).toEqual({ code: status.OK, details: '' });
    expect(await importFile(join(root, 'books/story.md'), 'story')).toEqual({ code: status.OK, details: '' });
  });

  it.each([
    // CreateRun also names the spec entry that gave the path.
    ['ImportDataset', importFile, ''],
    ['CreateRun', createRunOn, ' (datasets[0] in <CreateRun spec>)'],
  ])(
    '%s refuses paths outside the root, links out of it, devices, pipes and over-size files',
    async (_m, call, where) => {
      expect(await call('/etc/shadow')).toEqual({
        code: status.PERMISSION_DENIED,
        details: `${outside('/etc/shadow')}${where}`,
      });
      // A file that does not exist gets the same answer as one that does.
      expect(await call('/etc/no-such-file')).toEqual({
        code: status.PERMISSION_DENIED,
        details: `${outside('/etc/no-such-file')}${where}`,
      });
      expect(await call('/dev/zero')).toEqual({
        code: status.PERMISSION_DENIED,
        details: `${outside('/dev/zero')}${where}`,
      });
      expect(await call('../../../proc/self/environ')).toEqual({
        code: status.PERMISSION_DENIED,
        details: `${outside('../../../proc/self/environ')}${where}`,
      });
      expect(await call('books/passwd.md')).toEqual({
        code: status.PERMISSION_DENIED,
        details: `${outside('books/passwd.md')}${where}`,
      });
      expect(await call('pipe.md')).toEqual({
        code: status.INVALID_ARGUMENT,
        details: `pipe.md: is a named pipe, not a regular file; pass the path of a data file${where}`,
      });
      expect(await call('big.md')).toEqual({
        code: status.INVALID_ARGUMENT,
        details: `big.md: is 2000 bytes, over the limit of 1000 bytes (set by INGEST_MAX_FILE_BYTES); split the file or raise the limit${where}`,
      });
      expect(await call('books/missing.md')).toEqual({
        code: status.NOT_FOUND,
        details: `books/missing.md: file not found; check the path${where}`,
      });
    },
    60_000,
  );

  it('never imported a refused file, and ran each refused import once', async () => {
    const names = (await stack.db.query('SELECT name FROM datasets ORDER BY name')).map(
      (r: { name: string }) => r.name,
    );
    expect(names).toEqual(['story']);
    const attempts = await stack.db.query(
      `SELECT status, attempts, COUNT(*)::int AS n FROM tasks WHERE stage = 'ingest' AND status = 'failed' GROUP BY 1, 2`,
    );
    expect(attempts).toEqual([{ status: 'failed', attempts: 1, n: 8 }]);
  });
});
