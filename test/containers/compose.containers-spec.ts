// docker-compose.yml under podman-compose, as the README says to run it: PostgreSQL and NATS (the
// images named by POSTGRES_IMAGE / NATS_IMAGE: here built from Debian packages, no registry being
// reachable) and the six services from PRECIS_IMAGE on the compose network, each healthy by its
// image's check; a model-backed run submitted to the published gateway port against the fake
// OpenAI server on the host reports what the embedded run reports. Only `npm run test:containers`
// runs it (it builds the images first).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateApiKey } from '@precis/db';
import { type FakeLlmProcess, spawnFakeLlmProcess } from '@precis/testing';
import { insecureAccess } from '../../apps/cli/src/runtime/remote-access.js';
import { followRemoteRun, RemoteRuns, remoteRunStatus } from '../../apps/cli/src/runtime/remote-runs.js';
import { freePort } from '../../packages/service/test/support/service-process.js';
import { comparable, reportOf } from '../chaos/chaos-run.js';
import { embeddedWithFake } from '../e2e/embedded-runs.js';
import { bookSpec, judgeRules, registryObject, repoRoot, tempDir, writeJson } from '../e2e/runs-support.js';
import { type ComposeProject, composeProject } from './compose-project.js';
import { SERVICES as PRECIS_SERVICES, podman, waitHealthy } from './container-cluster.js';

const env = (name: string) => {
  const value = process.env[name];
  if (!value)
    throw new Error(`run through \`npm run test:containers\`: it builds the images and sets ${name}`);
  return value;
};
const label = process.env.PRECIS_CONTAINER_LABEL ?? 'precis-test=containers';
const SERVICES = ['postgres', 'nats', ...PRECIS_SERVICES];
// The story as the gateway sees it: PRECIS_DATASETS_DIR is mounted at /data.
const spec = () =>
  bookSpec({ dataset: { name: 'lighthouse', kind: 'text', path: '/data/the-lighthouse-keeper.md' } });

// The embedded run's report with the story's path as the gateway sees it.
const asGatewaySees = (report: Record<string, unknown>): Record<string, unknown> =>
  JSON.parse(JSON.stringify(report).replaceAll(join(repoRoot, 'examples/data'), '/data'));

describe('docker-compose.yml under podman-compose', () => {
  const tmp = tempDir('precis-compose-');
  const access = insecureAccess(generateApiKey());
  let fake: FakeLlmProcess;
  let project: ComposeProject;
  let ports: { grpc: number; http: number };
  let baseline: Record<string, unknown>;

  beforeAll(async () => {
    const rules = judgeRules();
    baseline = await embeddedWithFake({
      name: 'compose',
      spec: bookSpec(),
      rules,
      registry: registryObject,
      outcome: async (d, runId) => asGatewaySees(await reportOf(d, runId)),
    });
    // On all addresses: the containers reach the host as host.containers.internal.
    const rulesFile = writeJson(join(tmp.dir, 'rules.json'), rules);
    fake = await spawnFakeLlmProcess([
      '--host',
      '0.0.0.0',
      '--latency',
      '20',
      '--capacity',
      '64',
      '--rules',
      rulesFile,
    ]);
    const port = new URL(fake.baseURL).port;
    const models = writeJson(
      join(tmp.dir, 'models.yaml'),
      registryObject(`http://host.containers.internal:${port}/v1`),
    );
    ports = { grpc: await freePort(), http: await freePort() };
    project = composeProject(
      `precis-ct-${randomBytes(3).toString('hex')}`,
      tmp.dir,
      {
        PRECIS_IMAGE: env('PRECIS_IMAGE'),
        POSTGRES_IMAGE: env('PRECIS_POSTGRES_IMAGE'),
        NATS_IMAGE: env('PRECIS_NATS_IMAGE'),
        GATEWAY_GRPC_PORT: String(ports.grpc),
        GATEWAY_HTTP_PORT: String(ports.http),
        PRECIS_MODELS_FILE: models,
        PRECIS_DATASETS_DIR: join(repoRoot, 'examples/data'),
        PRECIS_API_KEYS: access.key,
      },
      label,
    );
  }, 120_000);

  afterAll(async () => {
    try {
      project?.compose(['down', '-v']);
      // podman-compose 1.0 leaves the project's network behind.
      podman(['network', 'rm', `${project?.name}_default`]);
    } finally {
      await fake?.close();
      tmp.remove();
    }
  }, 120_000);

  it('starts PostgreSQL, NATS and the six services, each healthy by its image check', async () => {
    project.compose(['up', '-d', '--no-build']);
    const ready = [];
    for (const s of SERVICES)
      ready.push(`${s} ${((await waitHealthy(project.container(s))) / 1000).toFixed(1)} s`);
    process.stderr.write(`compose services healthy: ${ready.join(', ')}\n`);
    expect(ready).toHaveLength(8);
  }, 240_000);

  it('runs a spec submitted to the published gateway port, with the embedded report', async () => {
    const runs = new RemoteRuns(`127.0.0.1:${ports.grpc}`, access);
    try {
      const { run } = await runs.createRun(spec());
      const { run: final } = await followRemoteRun(runs, run.id, { pollMs: 250 });
      expect([remoteRunStatus(final), final.error]).toEqual(['completed', '']);
      const res = await fetch(`http://127.0.0.1:${ports.http}/api/v1/runs/${run.id}/report`, {
        headers: { authorization: `Bearer ${access.key}` },
      });
      expect(res.status).toBe(200);
      expect(comparable((await res.json()) as Record<string, unknown>)).toEqual(baseline);
    } finally {
      runs.close();
    }
  }, 180_000);
});
