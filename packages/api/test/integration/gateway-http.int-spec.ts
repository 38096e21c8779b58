// The gateway in-process over the real PostgreSQL and NATS, its log captured: every response
// carries a request id, every 5xx is logged at error level under it (REST and gRPC), malformed
// query values and over-deep specs are 400s naming the field, and a client that never finishes
// its headers is cut off.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Writable } from 'node:stream';
import { credentials, Metadata, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createNatsBus } from '@precis/bus';
import { type ListRunsResponse, RunServiceClient } from '@precis/contracts';
import { createThrowawayDatabase, generateApiKey, type ThrowawayDatabase } from '@precis/db';
import { bootstrapService, type RunningService } from '@precis/service';
import { DataSource } from 'typeorm';
import { freePort } from '../../../service/test/support/service-process.js';
import { GATEWAY_ENV } from '../../src/config/gateway.env.js';
import { GatewayModule } from '../../src/gateway.module.js';
import { connectGrpcServer } from '../../src/grpc/grpc-server.js';

type LogLine = Record<string, unknown> & { err?: { stack?: string; message?: string } };
type Body = Record<string, unknown> & { error?: string; requestId?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FIX = 'a benchmark spec needs only a few levels: flatten it';
const nested = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;

describe('the gateway over HTTP and gRPC (in-process)', () => {
  const prefix = `int_gwhttp_${randomBytes(4).toString('hex')}`;
  const key = generateApiKey();
  const logs: LogLine[] = [];
  let db: ThrowawayDatabase;
  let svc: RunningService<typeof GATEWAY_ENV>;
  let httpPort: number;
  let runs: RunServiceClient;

  beforeAll(async () => {
    db = await createThrowawayDatabase('int_gateway_http');
    httpPort = await freePort();
    const grpcPort = await freePort();
    const destination = new Writable({
      write(chunk, _enc, cb) {
        for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
        cb();
      },
    });
    svc = await bootstrapService(GatewayModule, {
      name: 'gateway',
      packageJson: new URL('../../package.json', import.meta.url),
      env: GATEWAY_ENV,
      stages: ['ingest'],
      configure: connectGrpcServer,
      handleSignals: false,
      logDestination: destination,
      processEnv: {
        DATABASE_URL: db.url,
        NATS_URL: process.env.NATS_URL,
        PRECIS_BUS_PREFIX: prefix,
        HTTP_HOST: '127.0.0.1',
        HTTP_PORT: String(httpPort),
        GRPC_PORT: String(grpcPort),
        PRECIS_API_KEYS: key,
        LOG_LEVEL: 'info',
      },
    });
    runs = new RunServiceClient(`127.0.0.1:${grpcPort}`, credentials.createInsecure());
  }, 60_000);

  afterAll(async () => {
    runs?.close();
    await svc?.shutdown('test end');
    const admin = await createNatsBus({ prefix });
    await admin.deleteStreams();
    await admin.close();
    await db?.drop();
  }, 60_000);

  async function call(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
    const res = await fetch(`http://127.0.0.1:${httpPort}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
    });
    const text = await res.text();
    let body: Body = {};
    try {
      body = JSON.parse(text) as Body;
    } catch {
      // The web page and the metrics are not JSON.
    }
    return { status: res.status, requestId: res.headers.get('x-request-id'), body, text };
  }

  const errorLines = (requestId: string) =>
    logs.filter((l) => l.level === 'error' && l.requestId === requestId);

  it('answers a malformed limit with a 400 naming it, not a 500, with the request id in body and header', async () => {
    const res = await call('/api/v1/runs?limit=abc');
    expect([res.status, res.body.error]).toEqual([
      400,
      'limit: expected an integer from 1 to 100, received "abc"',
    ]);
    expect(res.requestId).toMatch(UUID);
    expect(res.body.requestId).toBe(res.requestId);
    expect(errorLines(res.requestId!)).toEqual([]);
  });

  it('checks every query parameter of every route', async () => {
    const cases: [string, string][] = [
      ['/api/v1/runs?limit=0', 'limit: expected an integer from 1 to 100, received "0"'],
      ['/api/v1/runs?limit=101', 'limit: expected an integer from 1 to 100, received "101"'],
      ['/api/v1/runs?limit=2.5', 'limit: expected an integer from 1 to 100, received "2.5"'],
      ['/api/v1/runs?limit=1&limit=2', 'limit: given 2 times; give it once'],
      [
        '/api/v1/runs?status=done',
        'status: expected one of pending, running, completed, completed-with-failures, failed, stopped, interrupted, cancelled, received "done"',
      ],
      ['/api/v1/runs?pageToken=a&pageToken=b', 'pageToken: given 2 times; give it once'],
      [
        '/api/v1/runs?pageToken=xyz',
        'page_token: not a token this gateway issued for this list; start again without one',
      ],
      [
        '/api/v1/runs/ffffffff/samples?offset=-1',
        'offset: expected an integer from 0 to 1000000000, received "-1"',
      ],
      [
        '/api/v1/runs/ffffffff/samples?limit=5000',
        'limit: expected an integer from 1 to 1000, received "5000"',
      ],
      ['/api/v1/leaderboard', 'runs: give run ids, comma-separated'],
      ['/api/v1/leaderboard?runs=,', 'runs: give 1 to 50 run ids, comma-separated; received 0'],
      [
        '/api/v1/leaderboard?runs=a&alpha=abc',
        'alpha: expected a number between 0 and 1 (both excluded), received "abc"',
      ],
      [
        '/api/v1/leaderboard?runs=a&alpha=1',
        'alpha: expected a number between 0 and 1 (both excluded), received "1"',
      ],
      ['/api/v1/leaderboard?runs=a&metric=x&metric=y', 'metric: given 2 times; give it once'],
      ['/api/v1/datasets?kind=a&kind=b', 'kind: given 2 times; give it once'],
      [
        `/api/v1/runs?limit=${'9'.repeat(60)}`,
        `limit: expected an integer from 1 to 100, received "${'9'.repeat(39)}…"`,
      ],
    ];
    for (const [path, error] of cases) {
      const res = await call(path);
      expect([path, res.status, res.body.error]).toEqual([path, 400, error]);
    }
    // Valid values still work.
    const ok = await call('/api/v1/runs?limit=5&status=completed');
    expect([ok.status, ok.body]).toEqual([200, { runs: [], nextPageToken: '' }]);
    const datasets = await call('/api/v1/datasets?kind=text');
    expect([datasets.status, datasets.body]).toEqual([200, { datasets: [], nextPageToken: '' }]);
  });

  it('refuses a spec nested 5,000 levels deep with a 400 naming the limit, over REST and gRPC', async () => {
    const specJson = `{"name":"deep","systems":${nested(5000)}}`;
    // As text: the test's own JSON.stringify would overflow on it.
    const res = await call('/api/v1/runs', { method: 'POST', body: `{"spec":${specJson}}` });
    expect([res.status, res.body.error]).toEqual([400, `spec: nested more than 64 levels deep; ${FIX}`]);
    expect(res.body.requestId).toBe(res.requestId);

    const grpc = await new Promise<{ code: number; details: string }>((done) =>
      runs.createRun({ specJson, fresh: true, skipPreflight: false }, authorized(), (err) =>
        done({ code: err?.code ?? status.OK, details: err?.details ?? '' }),
      ),
    );
    expect(grpc).toEqual({
      code: status.INVALID_ARGUMENT,
      details: `<CreateRun spec>: invalid benchmark spec\n  - spec_json is nested more than 64 levels deep (line 1, column 89); ${FIX}`,
    });
  });

  it('refuses a YAML spec nested 20,000 levels deep naming the limit and the place, not the stack', async () => {
    const specYaml = `name: deep\nsystems: ${nested(20_000)}\n`;
    const res = await call('/api/v1/runs', { method: 'POST', body: JSON.stringify({ specYaml }) });
    expect([res.status, res.body.error]).toEqual([
      400,
      `<CreateRun spec>: invalid benchmark spec\n  - spec_yaml is nested more than 64 levels deep (line 2, column 74); ${FIX}`,
    ]);
    expect(res.text).not.toMatch(/call stack|at .*\.js/);
  });

  it('logs a 500 at error level with the stack, method, path and the request id the response carries', async () => {
    const sql = svc.app.get(DataSource);
    await sql.query('ALTER TABLE runs RENAME TO runs_hidden');
    try {
      const res = await call('/api/v1/runs?limit=7&pageToken=', {
        headers: { 'x-request-id': 'probe-500.a' },
      });
      expect(res).toMatchObject({ status: 500, requestId: 'probe-500.a' });
      expect(res.body).toEqual({
        error: "internal error (request id probe-500.a; the details are in the gateway's log)",
        requestId: 'probe-500.a',
      });
      const [line, ...more] = errorLines('probe-500.a');
      expect(more).toEqual([]);
      expect(line).toMatchObject({ method: 'GET', path: '/api/v1/runs', status: 500 });
      expect(line!.msg).toBe('REST GET /api/v1/runs answered 500');
      expect(line!.err!.stack).toMatch(/relation "runs" does not exist[\s\S]*\n\s+at /);

      // gRPC: INTERNAL with a reference, logged at error level under that reference.
      const grpc = await new Promise<{ code: number; details: string }>((done) =>
        runs.listRuns(
          { status: 0, limit: 0, pageSize: 5, pageToken: '' },
          authorized(),
          (err, _v?: ListRunsResponse) => done({ code: err?.code ?? status.OK, details: err?.details ?? '' }),
        ),
      );
      expect(grpc.code).toBe(status.INTERNAL);
      const reference =
        /^ListRuns failed: internal error \(reference ([0-9a-f]{8}); the details are in the gateway's log\)$/.exec(
          grpc.details,
        )?.[1];
      expect(reference).toBeDefined();
      const grpcLine = logs.find((l) => l.level === 'error' && l.reference === reference);
      expect(grpcLine).toMatchObject({ method: 'ListRuns', msg: 'gRPC call failed unexpectedly' });
      expect(grpcLine!.err!.stack).toMatch(/relation "runs" does not exist/);
    } finally {
      await sql.query('ALTER TABLE runs_hidden RENAME TO runs');
    }
  });

  it('gives every response an x-request-id: the caller’s own when sane, else a new one', async () => {
    for (const path of ['/health/live', '/metrics', '/api/openapi.json', '/', '/no-such-route'])
      expect([path, (await call(path)).requestId]).toEqual([path, expect.stringMatching(UUID)]);
    // The body parser's own refusal, before any route.
    const malformed = await call('/api/v1/runs', { method: 'POST', body: '{"spec": {' });
    expect([malformed.status, malformed.requestId]).toEqual([400, expect.stringMatching(UUID)]);
    const own = await call('/api/v1/runs?limit=abc', { headers: { 'x-request-id': 'client-7:a_b.c-d' } });
    expect([own.requestId, own.body.requestId]).toEqual(['client-7:a_b.c-d', 'client-7:a_b.c-d']);
    for (const insane of ['<script>', 'a'.repeat(129), 'with space'])
      expect((await call('/health/live', { headers: { 'x-request-id': insane } })).requestId).toMatch(UUID);
  });

  it('closes a connection whose headers do not arrive within the headers timeout', async () => {
    // Node's defaults (60 s, checked every 30 s) would keep this connection open past the deadline.
    const deadlineMs = 20_000;
    const outcome = await new Promise<string>((done) => {
      const socket = net.connect(httpPort, '127.0.0.1', () =>
        socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\n'),
      );
      let received = '';
      const timer = setTimeout(() => {
        socket.destroy();
        done(`still open after ${deadlineMs} ms`);
      }, deadlineMs);
      socket.on('data', (d) => {
        received += String(d);
      });
      socket.on('close', () => {
        clearTimeout(timer);
        done(received);
      });
    });
    expect(outcome).toBe('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
  }, 30_000);

  function authorized(): Metadata {
    const md = new Metadata();
    md.set('authorization', `Bearer ${key}`);
    return md;
  }
});
