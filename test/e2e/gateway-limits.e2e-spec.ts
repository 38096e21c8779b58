// Bounded answers and requests at the gateway: lists are paginated (a page can never approach the
// gRPC message limit, even over runs stored with 1 MB names), oversized requests and ids are
// refused, and waiting imports are capped. Needs the build: `npx turbo run build`.

import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ListRunsResponse, type Run } from '@precis/contracts';
import { RunEntity } from '@precis/db';
import { runCli } from '../../apps/cli/test/run-cli.js';
import {
  type Answer,
  answer as answerWith,
  authorized,
  type GatewayStack,
  startGatewayStack,
} from './gateway-support.js';
import { tempDir } from './runs-support.js';

describe('gateway limits', () => {
  const tmp = tempDir('precis-limits-');
  let stack: GatewayStack;
  const answer = <T>(invoke: Parameters<typeof answerWith<T>>[1]): Promise<Answer<T>> =>
    answerWith(authorized(stack.key), invoke);

  const listRuns = (pageSize: number, pageToken = '') =>
    answer<ListRunsResponse>((md, o, cb) =>
      stack.runs.listRuns({ status: 0, limit: 0, pageSize, pageToken }, md, o, cb),
    );

  beforeAll(async () => {
    stack = await startGatewayStack({
      name: 'gateway_limits',
      env: {
        INGEST_ROOT: tmp.dir,
        // No ingestion service runs: an import waits until this timeout.
        INGEST_TIMEOUT_MS: '3000',
        IMPORT_MAX_IN_FLIGHT: '1',
      },
    });
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
    tmp.remove();
  }, 30_000);

  it('lists runs stored with 1 MB names in pages far below the message limit', async () => {
    const repo = stack.db.getRepository(RunEntity);
    // As an older version could have stored them, bypassing today's name validation.
    const huge = (c: string) => ({
      name: c.repeat(1_000_000),
      status: 'failed' as const,
      spec: { big: 'x'.repeat(100_000) },
      specSha256: c,
      error: 'e'.repeat(1_000_000),
    });
    await repo.save(['a', 'b', 'c'].map(huge));
    for (let i = 0; i < 117; i++)
      await repo.save({ name: `run-${i}`, status: 'completed', spec: {}, specSha256: `s${i}` });

    const first = await listRuns(500);
    expect(first.code).toBe(status.OK);
    expect(first.value!.runs).toHaveLength(100);
    expect(first.value!.nextPageToken).not.toBe('');
    const second = await listRuns(500, first.value!.nextPageToken);
    expect(second.value!.runs).toHaveLength(20);
    expect(second.value!.nextPageToken).toBe('');
    const all: Run[] = [...first.value!.runs, ...second.value!.runs];
    expect(new Set(all.map((r) => r.id)).size).toBe(120);
    const big = all.filter((r) => r.name.length > 100);
    expect(big.map((r) => [r.name.length, r.error.length, r.specJson])).toEqual([
      [200, 500, ''],
      [200, 500, ''],
      [200, 500, ''],
    ]);
    // The largest page possible: 100 runs, here including the three huge ones.
    const bytes = ListRunsResponse.encode({
      runs: [...big, ...first.value!.runs.slice(0, 97)],
      nextPageToken: 'x',
    }).finish().length;
    expect(bytes).toBeLessThan(200_000);

    // The CLI follows the pages up to its --limit.
    const cli = await runCli(['--remote', stack.address, 'runs', 'ls', '--limit', '110', '--json'], {
      PRECIS_API_KEY: stack.key,
    });
    expect(cli.stderr).toBe('');
    const listed = JSON.parse(cli.stdout) as { id: string }[];
    expect(listed.map((r) => r.id)).toEqual(all.slice(0, 110).map((r) => r.id));

    const got = await answer<{ run?: Run }>((md, o, cb) =>
      stack.runs.getRun({ runId: big[0]!.id }, md, o, cb),
    );
    expect(got.value!.run!.error.length).toBe(1_000_000);
  }, 60_000);

  it('refuses a forged page token, a 1 MB run id and 1 MB and 100 kB run names without echoing them', async () => {
    expect(await listRuns(10, 'not-a-token')).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'page_token: not a token this gateway issued for this list; start again without one',
    });
    const id = 'r'.repeat(1_000_000);
    expect(await answer((md, o, cb) => stack.runs.getRun({ runId: id }, md, o, cb))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'run_id: 1000000 characters; at most 100 are accepted',
    });
    const create = (name: string) => {
      const spec = {
        name,
        datasets: [{ name: 'd' }],
        systems: [{ name: 's', strategy: 'hierarchical', engine: 'textrank' }],
        metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
      };
      return answer((md, o, cb) =>
        stack.runs.createRun(
          { specJson: JSON.stringify(spec), fresh: true, skipPreflight: false },
          md,
          o,
          cb,
        ),
      );
    };
    // A 1 MB spec text is refused before it is parsed; a long name within a spec's size by the schema.
    const huge = await create('n'.repeat(1_000_000));
    expect(huge).toEqual({
      code: status.INVALID_ARGUMENT,
      details:
        '<CreateRun spec>: invalid benchmark spec\n  - spec_json is 1000174 characters long, over the limit of 131072; a benchmark spec needs only a few kilobytes: split it into several specs',
    });
    const named = await create('n'.repeat(100_000));
    expect(named.code).toBe(status.INVALID_ARGUMENT);
    expect(named.details).toContain('name: at most 100 characters');
    expect(named.details.length).toBeLessThan(1000);
  });

  it('refuses a request over GRPC_MAX_MESSAGE_BYTES with RESOURCE_EXHAUSTED', async () => {
    const specJson = JSON.stringify({ name: 'x', padding: 'p'.repeat(5 * 1024 * 1024) });
    const res = await answer((md, o, cb) =>
      stack.runs.createRun({ specJson, fresh: true, skipPreflight: false }, md, o, cb),
    );
    expect(res.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(res.details).toMatch(/^Received message larger than max \(\d+ vs 4194304\)$/);
  });

  it('refuses an import beyond IMPORT_MAX_IN_FLIGHT at once, and takes one again when a slot frees', async () => {
    const call = () =>
      answer((md, o, cb) =>
        stack.ingestion.importDataset(
          { kind: 'text', path: 'book.md', datasetName: 'book', replace: false },
          md,
          o,
          cb,
        ),
      );
    const waiting = call();
    await new Promise((r) => setTimeout(r, 300));
    expect(await call()).toEqual({
      code: status.RESOURCE_EXHAUSTED,
      details:
        'this gateway already holds 1 of 1 waiting imports (IMPORT_MAX_IN_FLIGHT); retry when one has finished',
    });
    expect((await waiting).code).toBe(status.DEADLINE_EXCEEDED);
    expect((await call()).code).toBe(status.DEADLINE_EXCEEDED);
  }, 30_000);
});
