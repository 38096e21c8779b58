import { join } from 'node:path';
import { createDataSource } from '@precis/db';
import { cpuProfileArgs } from '../service-process.js';
import { type JobOptions, jobSpec, PRECIS_CLI, registry, scratch } from './job.js';
import {
  childEnv,
  failIfNonZero,
  log,
  serverView,
  startFake,
  timedCommand,
  type VariantResult,
} from './measure.js';
import { precisVariant, type RunPhases, runPhases } from './phases.js';

export interface EmbeddedResult extends VariantResult {
  phases: RunPhases;
  timeline: string;
  // Start-up alone: `precis --version`, and `precis datasets ls` on a fresh PRECIS_HOME (Node,
  // the CLI's modules, PGlite created and migrated, closed).
  probes: { versionMs: number; freshHomeMs: number };
}

// Process start-up without the job, each on a fresh PRECIS_HOME.
async function startupProbes(node: string): Promise<EmbeddedResult['probes']> {
  const dir = scratch('probe');
  try {
    const env = childEnv({ PRECIS_HOME: join(dir.dir, 'home') });
    const version = await timedCommand(node, [PRECIS_CLI, '--version'], {
      cwd: dir.dir,
      env,
      label: 'precis --version',
    });
    failIfNonZero(version, 'precis --version');
    const ls = await timedCommand(node, [PRECIS_CLI, 'datasets', 'ls'], {
      cwd: dir.dir,
      env,
      label: 'precis datasets ls',
    });
    failIfNonZero(ls, 'precis datasets ls (fresh PRECIS_HOME)');
    return { versionMs: version.wallMs, freshHomeMs: ls.wallMs };
  } finally {
    dir.remove();
  }
}

// The real `precis run` as its own process on a fresh PRECIS_HOME (embedded PGlite, nothing
// cached), the registry in PRECIS_MODELS, on the Node binary `node`. `profileDir`: also write a
// V8 CPU profile there.
export async function runEmbedded(
  job: JobOptions,
  node: string,
  profileDir?: string,
): Promise<EmbeddedResult> {
  const nodeArgs = cpuProfileArgs(profileDir);
  log('precis embedded: start-up probes (precis --version, precis datasets ls on a fresh home)');
  const probes = await startupProbes(node);
  const fake = await startFake(job);
  const dir = scratch('embedded');
  try {
    const home = join(dir.dir, 'home');
    const env = childEnv({
      PRECIS_HOME: home,
      PRECIS_MODELS: dir.write('models.json', registry(fake.baseURL, job.capacity)),
    });
    const spec = dir.write('spec.json', jobSpec(job.products));
    log(
      `precis embedded: precis run (${job.products} products)${profileDir ? `, CPU profile in ${profileDir}` : ''}`,
    );
    const res = await timedCommand(node, [...nodeArgs, PRECIS_CLI, 'run', spec], {
      cwd: dir.dir,
      env,
      label: 'precis embedded',
    });
    failIfNonZero(res, 'precis run (embedded)');
    const server = await serverView(fake, res.startedAt);
    // Read after the clock stopped: opening PGlite here takes a few seconds.
    const db = await createDataSource({ pgliteDir: join(home, 'db'), runMigrations: false });
    let phases: RunPhases;
    try {
      phases = await runPhases(db);
    } finally {
      await db.destroy();
    }
    const started = res.lines.find((l) => l.text.startsWith('started run'));
    const marks: [string, number | null][] = [
      ['"started run" printed', started ? res.startedAt + started.t : null],
      ['preflight call', server.preflightMs === null ? null : res.startedAt + server.preflightMs],
    ];
    return { ...precisVariant('precis embedded', res, server, phases, marks, []), probes };
  } finally {
    await fake.close();
    dir.remove();
  }
}
