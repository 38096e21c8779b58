// A KGDS run's per-summary values through the gateway's REST API (its own process): the samples
// the web page's table pages through, and the document each row links to.
// Needs the build: `npx turbo run build` (the gateway runs from dist).

import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createInProcessBus } from '@precis/bus';
import { prepareImport } from '@precis/ingest';
import { builtInFamilies, createRun, createRunContext, executeRun, validateSpec } from '../support/precis.js';
import { type GatewayStack, startGatewayStack } from './gateway-support.js';
import { repoRoot } from './runs-support.js';

const KGDS = resolve(repoRoot, '../shared/datasets/kgds/KGDS.json');
const BSP = 'offline: indices vs gold BSP';
const LEXICAL = 'engine:lexical-overlap@1 (heuristic)';
// biome-ignore lint/suspicious/noExplicitAny: the tests read JSON bodies field by field
type Body = Record<string, any>;

describe('the REST API on a KGDS run', () => {
  let stack: GatewayStack;
  let runId: string;
  let base: string;

  beforeAll(async () => {
    stack = await startGatewayStack({ name: 'samples' });
    base = `http://127.0.0.1:${stack.gateway.httpPort}`;
    const bus = createInProcessBus();
    const ctx = createRunContext({ prepareImport, families: builtInFamilies, db: stack.db, bus });
    const spec = validateSpec(builtInFamilies, {
      name: 'rest-kgds',
      datasets: [{ name: 'kgds', kind: 'kgds', path: KGDS, limit: 2 }],
      systems: [
        { name: 'gold', source: 'gold' },
        { name: 'lead-abs', strategy: 'abs-aos', engine: 'lead', params: { paragraphs: 2 } },
      ],
      metrics: [{ name: 'kgds', judge: { engine: 'lexical' } }],
    });
    const { run } = await createRun(ctx, { spec, file: 'spec.yaml', text: '' });
    await executeRun(ctx, bus, run.id, { concurrency: 2 });
    await bus.close();
    runId = run.id;
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const get = async (path: string): Promise<{ status: number; body: Body }> => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${stack.key}` } });
    return { status: res.status, body: (await res.json()) as Body };
  };

  it("pages through every summary's values, each naming its document and what produced it", async () => {
    const all = await get(`/api/v1/runs/${runId}/samples?limit=1000`);
    // Two samples: gold has 6 EBS-AOS measures each, lead-abs 5 ABS-AOS measures each.
    expect(all.body.total).toBe(2 * 6 + 2 * 5);
    const samples = all.body.samples as {
      document: string;
      documentId: string;
      system: string;
      metric: string;
      value: number;
      producedBy: string;
    }[];
    expect(samples).toHaveLength(22);
    const first = samples[0]!;
    expect(samples.slice(0, 6).map((s) => [s.system, s.document, s.metric, s.value, s.producedBy])).toEqual([
      ['gold', first.document, 'kgds:bsp-f1', 100, BSP],
      ['gold', first.document, 'kgds:bsp-p', 100, BSP],
      ['gold', first.document, 'kgds:bsp-r', 100, BSP],
      ['gold', first.document, 'kgds:cao-r', 100, LEXICAL],
      ['gold', first.document, 'kgds:op-gm', 100, LEXICAL],
      ['gold', first.document, 'kgds:paragraph-ratio', samples[5]!.value, BSP],
    ]);
    expect(new Set(samples.filter((s) => s.system === 'lead-abs').map((s) => s.metric))).toEqual(
      new Set(['kgds:cao-r', 'kgds:kbsaf-f1', 'kgds:kbsaf-p', 'kgds:kbsaf-r', 'kgds:op-gm']),
    );
    const page = await get(`/api/v1/runs/${runId}/samples?offset=20&limit=5`);
    expect([page.body.total, page.body.offset, page.body.samples]).toEqual([22, 20, samples.slice(20)]);
  });

  it("opens the document a sample links to, with each system's summary", async () => {
    const { body } = await get(`/api/v1/runs/${runId}/samples?limit=1`);
    const sample = body.samples[0];
    const trace = await get(`/api/v1/runs/${runId}/traces/${sample.documentId}`);
    expect(trace.status).toBe(200);
    expect([trace.body.document.id, trace.body.document.externalId]).toEqual([
      sample.documentId,
      sample.document,
    ]);
    expect(trace.body.systems.map((s: { system: string }) => s.system)).toEqual(['gold', 'lead-abs']);
  });
});
