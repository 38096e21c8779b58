// The image as a cluster runs it: the migrations Job's command, then the six services as
// containers (commands and environment from the rendered Kubernetes base, read-only root, uid
// 1000), ready through the image's health check; a model-backed run submitted to the gateway,
// the verifier container SIGKILLed mid-run and started again; the report must equal an embedded
// run's, with nothing lost or duplicated. Only `npm run test:containers` runs it (it builds
// PRECIS_IMAGE first); `npm test` does not.
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createDataSource,
  createThrowawayDatabase,
  generateApiKey,
  type ThrowawayDatabase,
} from '@precis/db';
import type { FakeLlmProcess } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { insecureAccess } from '../../apps/cli/src/runtime/remote-access.js';
import { followRemoteRun, RemoteRuns, remoteRunStatus } from '../../apps/cli/src/runtime/remote-runs.js';
import { freePort } from '../../packages/service/test/support/service-process.js';
import { difference, reportOf } from '../chaos/chaos-run.js';
import { embeddedWithFake } from '../e2e/embedded-runs.js';
import {
  bookSpec,
  deleteBusStreams,
  finishedTasks,
  judgeRules,
  natsUrl,
  type RunCounts,
  registryObject,
  repoRoot,
  runCounts,
  startFakeProcess,
  tempDir,
  waitFor,
  writeJson,
} from '../e2e/runs-support.js';
import {
  type ContainerOptions,
  exec,
  imageUser,
  killContainer,
  type Manifests,
  podman,
  renderBase,
  runOnce,
  SERVICES,
  type Service,
  startAgain,
  startContainer,
  waitHealthy,
  writeModels,
} from './container-cluster.js';

const image = process.env.PRECIS_IMAGE;
const label = process.env.PRECIS_CONTAINER_LABEL ?? 'precis-test=containers';
if (!image)
  throw new Error('run through `npm run test:containers`: it builds the image and sets PRECIS_IMAGE');

interface Baseline {
  report: Record<string, unknown>;
  counts: RunCounts;
}

describe('the Precis image as a cluster runs it', () => {
  const tag = randomBytes(3).toString('hex');
  const prefix = `ct_${tag}`;
  const names = Object.fromEntries(SERVICES.map((s) => [s, `precis-ct-${tag}-${s}`])) as Record<
    Service,
    string
  >;
  const tmp = tempDir('precis-containers-');
  const rules = judgeRules();
  const access = insecureAccess(generateApiKey());
  let manifests: Manifests;
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let fake: FakeLlmProcess;
  let opts: ContainerOptions;
  const ports = {} as Record<Service, number>;
  let grpcPort: number;
  let baseline: Baseline;

  // A service's environment: the config map, its Deployment's literal env, the secrets' values,
  // then what host networking changes (every pod has its own address in a cluster).
  const envOf = (s: Service): Record<string, string> => ({
    ...manifests.config,
    ...manifests.services[s].env,
    DATABASE_URL: tdb.url,
    NATS_URL: natsUrl,
    HTTP_HOST: '127.0.0.1',
    HTTP_PORT: String(ports[s]),
    PRECIS_BUS_PREFIX: prefix,
    // A killed worker's tasks come back after 3 s instead of the default 30 s.
    TASK_ACK_WAIT_MS: '3000',
    TASK_RETRY_DELAYS_MS: '200',
    INGEST_ROOT: resolve(repoRoot, 'examples'),
    ...(s === 'gateway'
      ? { GRPC_HOST: '127.0.0.1', GRPC_PORT: String(grpcPort), PRECIS_API_KEYS: access.key }
      : {}),
    // Two tasks at a time keep the verifier busy long enough to be killed mid-run.
    ...(s === 'verifier' ? { WORKER_CONCURRENCY: '2' } : {}),
  });

  beforeAll(async () => {
    manifests = renderBase();
    baseline = await embeddedWithFake({
      name: 'containers',
      spec: bookSpec(),
      rules,
      registry: registryObject,
      outcome: async (d, runId) => ({ report: await reportOf(d, runId), counts: await runCounts(d, runId) }),
    });
    tdb = await createThrowawayDatabase('ct_cluster');
    fake = await startFakeProcess(writeJson(join(tmp.dir, 'rules.json'), rules), 300);
    opts = { image: image!, label, etcDir: writeModels(join(tmp.dir, 'etc'), registryObject(fake.baseURL)) };
    for (const s of SERVICES) ports[s] = await freePort();
    grpcPort = await freePort();
  }, 120_000);

  afterAll(async () => {
    podman(['rm', '-f', '-t', '0', '--ignore', ...Object.values(names)]);
    await fake?.close();
    await db?.destroy();
    await tdb?.drop();
    await deleteBusStreams(prefix).catch(() => {});
    tmp.remove();
  }, 60_000);

  it('migrates with the Job command, then every service passes its health check', async () => {
    const job = runOnce(opts, manifests.migrate, { DATABASE_URL: tdb.url });
    expect(job.status).toBe(0);
    db = await createDataSource({ url: tdb.url, runMigrations: false });
    // Nothing pending: the schema is what this checkout's migrations make it.
    expect(await db.showMigrations()).toBe(false);

    const ready = await Promise.all(
      SERVICES.map(async (s) => {
        // The pod's init container first: it returns once the schema is up to date.
        expect(runOnce(opts, manifests.services[s].init, { DATABASE_URL: tdb.url }).status).toBe(0);
        startContainer(opts, names[s], manifests.services[s].command, envOf(s));
        return `${s} ${((await waitHealthy(names[s])) / 1000).toFixed(1)} s`;
      }),
    );
    process.stderr.write(`services ready (health check): ${ready.join(', ')}\n`);
    expect(manifests.services.verifier.command).toEqual(['node', 'apps/verifier/dist/main.js']);
  }, 240_000);

  it('runs as uid 1000 on a read-only root filesystem with a writable /tmp', () => {
    expect(imageUser(image!)).toBe('1000:1000');
    expect(exec(names.gateway, ['id', '-u']).stdout).toBe('1000');
    const write = exec(names.gateway, ['touch', '/app/x']);
    expect(write.status).not.toBe(0);
    expect(write.stderr).toMatch(/Read-only file system/);
    expect(exec(names.gateway, ['touch', '/tmp/x']).status).toBe(0);
  });

  it('finishes a run whose verifier container was killed, with the embedded report', async () => {
    const runs = new RemoteRuns(`127.0.0.1:${grpcPort}`, access);
    try {
      const { run } = await runs.createRun(bookSpec());
      const following = followRemoteRun(runs, run.id, { pollMs: 250 });
      following.catch(() => {});
      const verifier = { httpPort: ports.verifier };
      const before = await waitFor(
        'the verifier to finish two tasks',
        async () => {
          const n = await finishedTasks(verifier, 'verify');
          return n >= 2 ? n : false;
        },
        120_000,
      );
      killContainer(names.verifier);
      startAgain(names.verifier);
      const restartMs = await waitHealthy(names.verifier);
      process.stderr.write(
        `verifier killed after ${before} verify tasks; healthy again in ${restartMs} ms\n`,
      );
      const { run: final } = await following;
      expect(final.error).toBe('');
      expect(remoteRunStatus(final)).toBe('completed');

      expect(await reportOf(db, run.id)).toEqual(baseline.report);
      const counts = await runCounts(db, run.id);
      expect(difference(counts, baseline.counts)).toEqual({ lost: 0, duplicated: 0 });
      const { modelCalls: _m, cacheHits: _c, ...rows } = counts;
      const { modelCalls: _bm, cacheHits: _bc, ...baseRows } = baseline.counts;
      expect(rows).toEqual(baseRows);
      expect(counts.tasksDone).toBe(counts.tasks);
      // The kill interrupted work: some verify task ran again after it.
      const again = await db.query(
        `SELECT count(*) AS n FROM tasks WHERE run_id = $1 AND stage = 'verify' AND attempts > 1`,
        [run.id],
      );
      process.stderr.write(`verify tasks run again after the kill: ${again[0].n} of ${counts.verifyTasks}\n`);
      expect(Number(again[0].n)).toBeGreaterThan(0);
    } finally {
      runs.close();
    }
  }, 300_000);
});
