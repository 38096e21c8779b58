// The verify stream made unusable under a running run (deleted, and its subject taken by another
// stream so that it cannot be declared again): the gateway and the verifier report not ready
// naming it, `precis run --remote` prints why the run is blocked (once), and once the obstacle is
// gone the run completes with the same results and counts as a fault-free embedded run.
// Needs the build: `npx turbo run build` (services and packages/testing run from dist).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { createNatsBus, type NatsBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import type { FakeLlmProcess } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { RemoteRuns, remoteRunStatus, runRemote } from '../../apps/cli/src/runtime/remote-runs.js';
import type { ServiceProcess } from '../../packages/service/test/support/service-process.js';
import { type Baseline, embeddedBaseline } from './embedded-runs.js';
import {
  bookSpec,
  type Cluster,
  deleteBusStreams,
  judgeRules,
  leaderboardOf,
  natsUrl,
  registryObject,
  runCounts,
  startCluster,
  startFakeProcess,
  tempDir,
  waitFor,
  writeJson,
} from './runs-support.js';

// The terminus answer: each check's status, and a message for those down.
type Checks = Record<string, { status: string; message?: string }>;
interface Readiness {
  status: number;
  body: { status: string; info?: Checks; error?: Checks };
}

async function readiness(proc: ServiceProcess): Promise<Readiness> {
  const res = await fetch(`http://127.0.0.1:${proc.httpPort}/health/ready`);
  return { status: res.status, body: (await res.json()) as Readiness['body'] };
}

describe('a stage stream made unusable under a running run', () => {
  const prefix = `e2e_broken_${randomBytes(4).toString('hex')}`;
  const tmp = tempDir('precis-broken-stream-');
  const rules = judgeRules();
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let fake: FakeLlmProcess;
  let cluster: Cluster;
  let admin: NatsBus;
  let baseline: Baseline;

  beforeAll(async () => {
    baseline = await embeddedBaseline(bookSpec(), rules);
    tdb = await createThrowawayDatabase('e2e_broken_stream');
    db = await createDataSource({ url: tdb.url, runMigrations: true });
    // Slow enough that the run is still summarizing when the verify stream breaks.
    fake = await startFakeProcess(writeJson(join(tmp.dir, 'rules.json'), rules), 150);
    const modelsFile = writeJson(join(tmp.dir, 'models.json'), registryObject(fake.baseURL));
    cluster = await startCluster({ databaseUrl: tdb.url, prefix, modelsFile, verifiers: 1 });
    admin = await createNatsBus({ servers: natsUrl, prefix, onError: () => undefined });
  }, 180_000);

  afterAll(async () => {
    const jsm = admin && (await jetstreamManager(admin.connection));
    await jsm?.streams.delete(`${admin.names.taskStream('verify')}_BLOCKER`).catch(() => undefined);
    await admin?.close();
    await cluster?.stopAll();
    await fake?.close();
    await db?.destroy();
    await tdb?.drop();
    await deleteBusStreams(prefix).catch(() => {});
    tmp.remove();
  }, 60_000);

  it('reports the stream until it is usable again, then completes with nothing lost', async () => {
    const stream = admin.names.taskStream('verify');
    const subject = admin.names.taskSubject('verify');
    const blocker = `${stream}_BLOCKER`;
    const lines: string[] = [];
    const out = {
      stderr: { write: (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)) },
    } as unknown as { stderr: NodeJS.WritableStream };
    const abort = new AbortController();
    const following = runRemote(out, cluster.grpcAddress, cluster.access, bookSpec(), {
      pollMs: 250,
      signal: abort.signal,
    });
    // Awaited below; a failed expectation before then must not leave it unhandled.
    following.catch(() => undefined);
    const runs = new RemoteRuns(cluster.grpcAddress, cluster.access);
    try {
      // CI once timed out here with no clue: a timeout now says what the command printed.
      const runId = await waitFor(
        'the run to start',
        async () => /^started run (\S+)/.exec(lines.join('\n'))?.[1],
        30_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}; precis run --remote printed:\n${lines.join('\n') || '(nothing)'}`);
      });
      await waitFor(
        'the run to be running',
        async () => remoteRunStatus(await runs.getRun(runId)) === 'running',
        30_000,
      );
      expect((await runs.getRun(runId)).taskCounts['verify.done'] ?? 0).toBe(0);

      // Break it: the stream goes, and another one takes its subject so it cannot come back.
      const jsm = await jetstreamManager(admin.connection);
      await jsm.streams.delete(stream);
      await jsm.streams.add({ name: blocker, subjects: [subject] });
      const cannotDeclare =
        `stream ${stream} cannot be declared: another stream already stores "${subject}" ` +
        '(subjects overlap with an existing stream); remove that stream or that subject from it';

      // Readiness names the stage, the stream and the error, in the gateway (it publishes verify
      // tasks) and in the verifier (it pulls them).
      for (const id of ['gateway', 'verifier-1']) {
        const down = await waitFor(
          `${id} not ready`,
          async () => {
            const r = await readiness(cluster.procs.get(id)!);
            return r.status === 503 && r.body.error?.queues ? r : undefined;
          },
          60_000,
          500,
        );
        expect(down.body.error?.queues?.status).toBe('down');
        expect(down.body.error?.queues?.message).toContain(`verify queue (stream ${stream}): `);
        expect(down.body.error?.queues?.message).toContain(` keeps failing: ${cannotDeclare} (for `);
        expect(down.body.info?.database?.status).toBe('up');
      }
      const verifierDown = await readiness(cluster.procs.get('verifier-1')!);
      expect(verifierDown.body.error?.queues?.message).toMatch(
        new RegExp(`^verify queue \\(stream ${stream}\\): consuming keeps failing: `),
      );

      // The run says why it is stuck, and so does the CLI following it.
      // Each process reports what it sees: the gateway its publishes, the verifier its pulls.
      const blocked = await waitFor(
        'the run to show both',
        async () => {
          const b = (await runs.getRun(runId)).blockedBy;
          return b.includes('publishing keeps failing') && b.includes('consuming keeps failing')
            ? b
            : undefined;
        },
        60_000,
      );
      expect(blocked).toContain(
        `verify queue (stream ${stream}): publishing keeps failing: ${cannotDeclare}`,
      );
      expect(blocked).toContain(`verify queue (stream ${stream}): consuming keeps failing: ${cannotDeclare}`);
      await waitFor('the CLI to print it', async () => lines.some((l) => l.startsWith('blocked: ')), 10_000);
      expect(remoteRunStatus(await runs.getRun(runId))).toBe('running');
      // Nothing was stored by the stream that took the subject.
      expect((await jsm.streams.info(blocker)).state.messages).toBe(0);

      // Repair: the verifier declares the stream again, the gateway re-sends the lost tasks.
      await jsm.streams.delete(blocker);
      const { exitCode, run } = await following;
      expect(remoteRunStatus(run)).toBe('completed');
      expect(exitCode).toBe(0);
      expect(run.error).toBe('');
      expect(run.blockedBy).toBe('');

      const blockedLines = lines.filter((l) => l.startsWith('blocked: '));
      expect(blockedLines.length).toBeGreaterThan(0);
      expect(blockedLines.every((l) => l.includes(`verify queue (stream ${stream}): `))).toBe(true);
      // Printed when it appeared or changed (another process reported), not on every poll; once
      // when it cleared.
      const blockedIndexes = lines.flatMap((l, i) => (l.startsWith('blocked: ') ? [i] : []));
      for (const [k, i] of blockedIndexes.slice(1).entries())
        expect(lines[i]).not.toBe(lines[blockedIndexes[k]!]);
      expect(blockedLines.length).toBeLessThan(10);
      expect(lines.filter((l) => l === 'no longer blocked: its stage queues work again')).toHaveLength(1);
      expect(lines.indexOf('no longer blocked: its stage queues work again')).toBeGreaterThan(
        lines.indexOf(blockedLines[0]!),
      );

      // Nothing lost, nothing done twice: the same counts and results as the fault-free run.
      expect(await runCounts(db, run.id)).toEqual(baseline.counts);
      expect(await leaderboardOf(db, run.id)).toEqual(baseline.leaderboard);
      for (const id of ['gateway', 'verifier-1'])
        await waitFor(
          `${id} ready again`,
          async () => (await readiness(cluster.procs.get(id)!)).status === 200,
          60_000,
          500,
        );
    } finally {
      abort.abort();
      runs.close();
    }
  }, 300_000);
});
