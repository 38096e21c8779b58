// Ingest errors no retry can fix (a NUL in the text, 50,000-deep metadata, a 50 MB line without a
// blank line) are answered INVALID_ARGUMENT at once, naming the file, the record and the field; the
// ingest task runs once. Needs the build: `npx turbo run build`.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { answer, authorized, type GatewayStack, startGatewayStack } from './gateway-support.js';
import { tempDir } from './runs-support.js';

describe('permanent ingest errors through the gateway', () => {
  const tmp = tempDir('precis-ingest-errors-');
  let stack: GatewayStack;

  const importFile = async (kind: string, path: string, name: string) => {
    const { code, details } = await answer(
      authorized(stack.key),
      (md, o, cb) =>
        stack.ingestion.importDataset({ kind, path, datasetName: name, replace: false }, md, o, cb),
      // Far below the ~51 s five retries used to take; a retried task fails the test.
      20_000,
    );
    return { code, details };
  };

  beforeAll(async () => {
    writeFileSync(
      join(tmp.dir, 'nul.jsonl'),
      '{"id":"a","text":"fine"}\n{"id":"b","text":"bad\\u0000text"}\n',
    );
    const deep = `${'['.repeat(50_000)}1${']'.repeat(50_000)}`;
    writeFileSync(join(tmp.dir, 'deep.jsonl'), `{"id":"a","text":"t","metadata":{"x":${deep}}}\n`);
    writeFileSync(join(tmp.dir, 'long.txt'), `Title line\n\n${'storm light '.repeat(4_400_000)}\n`);
    stack = await startGatewayStack({
      name: 'ingest_errors',
      withIngestion: true,
      env: { INGEST_ROOT: tmp.dir },
    });
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
    tmp.remove();
  }, 30_000);

  it('answers INVALID_ARGUMENT naming file, record and field, after one attempt', async () => {
    expect(await importFile('jsonl', 'nul.jsonl', 'nul')).toEqual({
      code: status.INVALID_ARGUMENT,
      details:
        'nul.jsonl: line 2, field text: holds a NUL character (U+0000), which cannot be stored. Fix: remove the \\u0000 escapes from the file',
    });
    expect(await importFile('jsonl', 'deep.jsonl', 'deep')).toEqual({
      code: status.INVALID_ARGUMENT,
      details:
        'deep.jsonl: line 1: JSON nested more than 64 levels deep (column 100). Fix: flatten the structure; datasets and their metadata need only a few levels',
    });
    expect(await importFile('text', 'long.txt', 'long')).toEqual({
      code: status.INVALID_ARGUMENT,
      details:
        'long.txt: line 3: a paragraph of 52,799,999 characters without a blank line; at most 1,000,000 are accepted. Fix: separate paragraphs with blank lines',
    });
    const tasks = await stack.db.query(
      `SELECT status, attempts, COUNT(*)::int AS n FROM tasks WHERE stage = 'ingest' GROUP BY 1, 2`,
    );
    expect(tasks).toEqual([{ status: 'failed', attempts: 1, n: 3 }]);
    expect((await stack.db.query('SELECT COUNT(*)::int AS n FROM datasets'))[0].n).toBe(0);
  }, 90_000);
});
