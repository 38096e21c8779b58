// The samples table's filters and sorts, and a document side by side, over REST and gRPC (the
// gateway in-process, real PostgreSQL and NATS), on values seeded so every answer is exact.
import { randomBytes } from 'node:crypto';
import { credentials, Metadata } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createNatsBus } from '@precis/bus';
import {
  type GetSideBySideResponse,
  type ListSamplesRequest,
  type ListSamplesResponse,
  RunServiceClient,
  SampleSort,
} from '@precis/contracts';
import { createThrowawayDatabase, generateApiKey, type ThrowawayDatabase } from '@precis/db';
import { bootstrapService, type RunningService } from '@precis/service';
import { DataSource } from 'typeorm';
import { freePort } from '../../../service/test/support/service-process.js';
import { GATEWAY_ENV } from '../../src/config/gateway.env.js';
import { GatewayModule } from '../../src/gateway.module.js';
import { connectGrpcServer } from '../../src/grpc/grpc-server.js';
import { seedSamples } from './samples-seed.js';

type Row = [system: string, document: string, metric: string, value: number | null, producedBy: string];
type Page = {
  total: number;
  offset: number;
  samples: Record<string, unknown>[];
  systems: string[];
  metrics: string[];
};

const F = 'model:judge fluency@1';
const C = 'model:judge coherence@1';

describe('samples and side by side over REST and gRPC (in-process gateway)', () => {
  const prefix = `int_samples_${randomBytes(4).toString('hex')}`;
  const key = generateApiKey();
  let db: ThrowawayDatabase;
  let svc: RunningService<typeof GATEWAY_ENV>;
  let httpPort: number;
  let grpc: RunServiceClient;
  let runId: string;

  beforeAll(async () => {
    db = await createThrowawayDatabase('int_samples_api');
    httpPort = await freePort();
    const grpcPort = await freePort();
    svc = await bootstrapService(GatewayModule, {
      name: 'gateway',
      packageJson: new URL('../../package.json', import.meta.url),
      env: GATEWAY_ENV,
      stages: ['ingest'],
      configure: connectGrpcServer,
      handleSignals: false,
      processEnv: {
        DATABASE_URL: db.url,
        NATS_URL: process.env.NATS_URL,
        PRECIS_BUS_PREFIX: prefix,
        HTTP_HOST: '127.0.0.1',
        HTTP_PORT: String(httpPort),
        GRPC_PORT: String(grpcPort),
        PRECIS_API_KEYS: key,
        LOG_LEVEL: 'warn',
      },
    });
    runId = await seedSamples(svc.app.get(DataSource));
    grpc = new RunServiceClient(`127.0.0.1:${grpcPort}`, credentials.createInsecure());
  }, 60_000);

  afterAll(async () => {
    grpc?.close();
    await svc?.shutdown('test end');
    const admin = await createNatsBus({ prefix });
    await admin.deleteStreams();
    await admin.close();
    await db?.drop();
  }, 60_000);

  async function get(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`http://127.0.0.1:${httpPort}${path}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  // The rows of one REST page, as [system, document, metric, value, producedBy].
  async function rows(query: string): Promise<{ total: number; rows: Row[] }> {
    const { status, body } = await get(`/api/v1/runs/${runId}/samples?${query}`);
    expect([query, status]).toEqual([query, 200]);
    const page = body as unknown as Page;
    return {
      total: page.total,
      rows: page.samples.map((s) => [
        s.system as string,
        s.document as string,
        s.metric as string,
        s.value as number | null,
        s.producedBy as string,
      ]),
    };
  }

  it("pages a run's values by system, document id and metric by default, with its systems and metrics", async () => {
    const { body } = await get(`/api/v1/runs/${runId}/samples?limit=4`);
    const page = body as unknown as Page;
    expect([page.total, page.offset, page.systems, page.metrics]).toEqual([
      18,
      0,
      ['human', 'lead', 'writer'],
      ['m:coherence', 'm:fluency'],
    ]);
    // Document ids order b-doc, c-doc, a-doc (their uuids), not by external id.
    expect(page.samples[0]).toEqual({
      document: 'b-doc',
      documentId: '00000000-0000-4000-8000-000000000001',
      system: 'human',
      metric: 'm:coherence',
      value: 4,
      producedBy: C,
    });
    expect((await rows('limit=4')).rows.map((r) => r.slice(0, 3).join(' '))).toEqual([
      'human b-doc m:coherence',
      'human b-doc m:fluency',
      'human c-doc m:coherence',
      'human c-doc m:fluency',
    ]);
    expect((await rows('offset=16&limit=4')).rows.map((r) => r.slice(0, 3).join(' '))).toEqual([
      'writer a-doc m:coherence',
      'writer a-doc m:fluency',
    ]);
  });

  it('filters by system, by metric and by a score range (bounds included, failed samples out)', async () => {
    expect(await rows('system=writer&metric=m:fluency')).toEqual({
      total: 3,
      rows: [
        ['writer', 'b-doc', 'm:fluency', null, F],
        ['writer', 'c-doc', 'm:fluency', null, F],
        ['writer', 'a-doc', 'm:fluency', 3, F],
      ],
    });
    expect(await rows('min=3.5&max=4.5&sort=value&order=asc')).toEqual({
      total: 6,
      rows: [
        ['human', 'c-doc', 'm:fluency', 3.5, F],
        ['lead', 'b-doc', 'm:coherence', 3.5, C],
        ['human', 'b-doc', 'm:coherence', 4, C],
        ['lead', 'b-doc', 'm:fluency', 4, F],
        ['human', 'b-doc', 'm:fluency', 4.5, F],
        ['writer', 'b-doc', 'm:coherence', 4.5, C],
      ],
    });
    expect((await rows('metric=m:coherence&min=5')).rows).toEqual([['human', 'a-doc', 'm:coherence', 5, C]]);
    expect(await rows('system=nobody')).toEqual({ total: 0, rows: [] });
  });

  it('filters to exactly the failed samples (null values), or to the scored ones', async () => {
    expect(await rows('failed=true')).toEqual({
      total: 3,
      rows: [
        ['lead', 'a-doc', 'm:coherence', null, C],
        ['writer', 'b-doc', 'm:fluency', null, F],
        ['writer', 'c-doc', 'm:fluency', null, F],
      ],
    });
    expect((await rows('failed=false')).total).toBe(15);
    expect((await rows('failed=true&system=lead')).rows).toEqual([['lead', 'a-doc', 'm:coherence', null, C]]);
  });

  it('sorts by value with a failed sample lowest, ties broken in the same direction', async () => {
    const desc = await rows('sort=value&order=desc&limit=3');
    expect(desc.rows).toEqual([
      ['lead', 'c-doc', 'm:fluency', 5, F],
      ['human', 'a-doc', 'm:coherence', 5, C],
      ['writer', 'b-doc', 'm:coherence', 4.5, C],
    ]);
    const last = await rows('sort=value&order=desc&offset=15');
    expect(last.rows.map((r) => r[3])).toEqual([null, null, null]);
    const asc = await rows('sort=value&order=asc&limit=4');
    expect(asc.rows.map((r) => [r[0], r[1], r[3]])).toEqual([
      ['lead', 'a-doc', null],
      ['writer', 'b-doc', null],
      ['writer', 'c-doc', null],
      ['lead', 'c-doc', 1],
    ]);
  });

  it('sorts by document external id, by metric (then value), by system and by producer', async () => {
    const byDoc = await rows('sort=document&limit=7');
    expect(byDoc.rows.map((r) => r.slice(0, 3).join(' '))).toEqual([
      'human a-doc m:coherence',
      'human a-doc m:fluency',
      'lead a-doc m:coherence',
      'lead a-doc m:fluency',
      'writer a-doc m:coherence',
      'writer a-doc m:fluency',
      'human b-doc m:coherence',
    ]);
    // A page that starts inside a document and ends inside another.
    const across = await rows('sort=document&order=desc&offset=4&limit=4');
    expect(across.rows.map((r) => r.slice(0, 3).join(' '))).toEqual([
      'human c-doc m:fluency',
      'human c-doc m:coherence',
      'writer b-doc m:fluency',
      'writer b-doc m:coherence',
    ]);
    expect((await rows('sort=document&order=desc&offset=17')).rows.map((r) => r.slice(0, 3))).toEqual([
      ['human', 'a-doc', 'm:coherence'],
    ]);
    const byMetric = await rows('sort=metric&order=desc&limit=3');
    expect(byMetric.rows).toEqual([
      ['lead', 'c-doc', 'm:fluency', 5, F],
      ['human', 'b-doc', 'm:fluency', 4.5, F],
      ['lead', 'b-doc', 'm:fluency', 4, F],
    ]);
    const bySystem = await rows('sort=system&order=desc&limit=2');
    expect(bySystem.rows.map((r) => r.slice(0, 3).join(' '))).toEqual([
      'writer a-doc m:fluency',
      'writer a-doc m:coherence',
    ]);
    const byProducer = await rows('sort=producedBy&limit=10');
    expect(byProducer.rows.map((r) => r[4])).toEqual([...Array(9).fill(C), F]);
    expect(byProducer.rows[9]!.slice(0, 3)).toEqual(['human', 'b-doc', 'm:fluency']);
  });

  it('pages every sort without a gap or a repeat', async () => {
    for (const sort of ['system', 'document', 'metric', 'value', 'producedBy'])
      for (const order of ['asc', 'desc']) {
        const whole = (await rows(`sort=${sort}&order=${order}&limit=100`)).rows;
        const paged: Row[] = [];
        for (let offset = 0; offset < 18; offset += 5)
          paged.push(...(await rows(`sort=${sort}&order=${order}&offset=${offset}&limit=5`)).rows);
        expect([sort, order, paged]).toEqual([sort, order, whole]);
        expect(new Set(whole.map((r) => r.slice(0, 3).join(' '))).size).toBe(18);
      }
  });

  it('answers 400 naming the parameter for a bad filter or sort', async () => {
    const cases: [string, string][] = [
      ['sort=score', 'sort: expected one of system, document, metric, value, producedBy, received "score"'],
      ['order=up', 'order: expected one of asc, desc, received "up"'],
      ['failed=yes', 'failed: expected one of true, false, received "yes"'],
      ['min=abc', 'min: expected a number, received "abc"'],
      ['max=1e999', 'max: expected a number, received "1e999"'],
      ['min=5&max=1', 'min: 5 is above max 1; give min <= max'],
      ['system=a&system=b', 'system: given 2 times; give it once'],
      [`metric=${'m'.repeat(201)}`, 'metric: 201 characters; at most 200 are accepted'],
    ];
    for (const [query, error] of cases) {
      const res = await get(`/api/v1/runs/${runId}/samples?${query}`);
      expect([query, res.status, res.body.error]).toEqual([query, 400, error]);
    }
  });

  it("shows a document's summaries side by side with their scores, failures with their reason", async () => {
    const { status, body } = await get(`/api/v1/runs/${runId}/side-by-side/c-doc`);
    expect(status).toBe(200);
    expect(body).toEqual({
      document: { id: '00000000-0000-4000-8000-000000000002', externalId: 'c-doc' },
      metrics: ['m:coherence', 'm:fluency'],
      systems: [
        {
          system: 'lead',
          strategy: 'opinion',
          summary: 'Lead of c.',
          producer: 'engine:lead',
          finalStep: 'o/final',
          values: [
            { metric: 'm:coherence', value: 1, producedBy: C, failure: null },
            { metric: 'm:fluency', value: 5, producedBy: F, failure: null },
          ],
        },
        {
          system: 'human',
          strategy: null,
          summary: 'Human <b>c</b>.',
          producer: 'dataset:human',
          finalStep: 'dataset',
          values: [
            { metric: 'm:coherence', value: 2, producedBy: C, failure: null },
            { metric: 'm:fluency', value: 3.5, producedBy: F, failure: null },
          ],
        },
        {
          system: 'writer',
          strategy: 'opinion',
          summary: 'Writer on c.',
          producer: 'model:writer-model',
          finalStep: 'o/final',
          values: [
            { metric: 'm:coherence', value: 3, producedBy: C, failure: null },
            {
              metric: 'm:fluency',
              value: null,
              producedBy: F,
              failure: 'none of the 1 samples had a parseable <score>',
            },
          ],
        },
        { system: 'silent', strategy: 'opinion', summary: null, producer: null, finalStep: null, values: [] },
      ],
    });
    const missing = await get(`/api/v1/runs/${runId}/side-by-side/z-doc`);
    expect([missing.status, missing.body.error]).toEqual([
      404,
      `run ${runId} has no document "z-doc"; give a document's external id, e.g. b-doc, c-doc, a-doc`,
    ]);
    const noRun = await get('/api/v1/runs/ffffffff/side-by-side/c-doc');
    expect([noRun.status, noRun.body.error]).toEqual([404, 'no run ffffffff (see `precis runs ls`)']);
  });

  const auth = () => {
    const md = new Metadata();
    md.set('authorization', `Bearer ${key}`);
    return md;
  };
  const listSamples = (r: Partial<ListSamplesRequest>) =>
    new Promise<ListSamplesResponse>((resolve, reject) =>
      grpc.listSamples(
        { runId, system: '', metric: '', sort: 0, descending: false, offset: 0, limit: 0, ...r },
        auth(),
        (err, res) => (err ? reject(err) : resolve(res)),
      ),
    );

  it('gives the same over gRPC: ListSamples filters and sorts, a failed value is unset', async () => {
    const failed = await listSamples({ failed: true, sort: SampleSort.SAMPLE_SORT_VALUE, descending: true });
    expect([failed.total, failed.samples.map((s) => [s.system, s.document, s.value])]).toEqual([
      3,
      [
        ['writer', 'c-doc', undefined],
        ['writer', 'b-doc', undefined],
        ['lead', 'a-doc', undefined],
      ],
    ]);
    const ranged = await listSamples({
      metric: 'm:fluency',
      minValue: 0,
      maxValue: 2,
      sort: SampleSort.SAMPLE_SORT_DOCUMENT,
    });
    expect(ranged.samples.map((s) => [s.system, s.document, s.value, s.producedBy])).toEqual([
      ['human', 'a-doc', 1.5, F],
      ['lead', 'a-doc', 2, F],
    ]);
    expect([ranged.systems, ranged.metrics]).toEqual([
      ['human', 'lead', 'writer'],
      ['m:coherence', 'm:fluency'],
    ]);
    await expect(listSamples({ limit: -1 })).rejects.toMatchObject({
      code: 3,
      details: 'limit: must be >= 0, got -1',
    });
    await expect(listSamples({ sort: 9 as SampleSort })).rejects.toMatchObject({
      code: 3,
      details: 'sort: unknown value 9',
    });
  });

  it('gives GetSideBySide over gRPC, a missing summary unset', async () => {
    const res = await new Promise<GetSideBySideResponse>((resolve, reject) =>
      grpc.getSideBySide({ runId, document: 'c-doc' }, auth(), (err, r) => (err ? reject(err) : resolve(r))),
    );
    expect([res.document, res.documentId, res.metrics]).toEqual([
      'c-doc',
      '00000000-0000-4000-8000-000000000002',
      ['m:coherence', 'm:fluency'],
    ]);
    expect(res.systems.map((s) => [s.system, s.strategy, s.summary, s.values.map((v) => v.value)])).toEqual([
      ['lead', 'opinion', 'Lead of c.', [1, 5]],
      ['human', '', 'Human <b>c</b>.', [2, 3.5]],
      ['writer', 'opinion', 'Writer on c.', [3, undefined]],
      ['silent', 'opinion', undefined, []],
    ]);
  });
});
