#!/usr/bin/env node
// `npm run test:containers`: builds the base and the Precis image with podman, then runs the
// container tests (test/containers): the migrations Job's command and the six services as
// containers with the Kubernetes base's commands and environment, a model-backed run through the
// gateway, the verifier container killed and started again. Runs as root where podman can be
// installed; not part of `npm test` (it takes minutes: see the README).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildBase,
  buildImage,
  buildServerImages,
  ContainerSetupError,
  ensurePodman,
  imageSizeBytes,
  npmVersionOf,
  pruneOldLayers,
  removeLabelled,
} from './lib/containers.mjs';
import { NODE_LTS } from './lib/node-lts.mjs';
import { provisionOrExit, stopProvisioned } from './lib/provision.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const COMMAND = 'npm run test:containers';
const IMAGE = process.env.PRECIS_IMAGE ?? 'localhost/precis:test';
const LABEL = 'precis-test=containers';
const started = Date.now();
const lines = [];
const secs = (t0) => ((Date.now() - t0) / 1000).toFixed(1);

function timed(what, fn) {
  const t0 = Date.now();
  const out = fn();
  lines.push(`${what}: ${secs(t0)} s`);
  process.stderr.write(`=== ${lines.at(-1)}\n`);
  return out;
}

try {
  ensurePodman();
} catch (err) {
  if (!(err instanceof ContainerSetupError)) throw err;
  console.error(`${COMMAND}: ${err.message}`);
  process.exit(1);
}
const services = await provisionOrExit(COMMAND, { chromium: false });
let status = 1;
try {
  const build = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the build failed');
  // Containers an interrupted earlier run left behind would hold its ports and names.
  removeLabelled(LABEL);
  const base = timed('base image', () =>
    buildBase({ nodeVersion: NODE_LTS[0], npmVersion: npmVersionOf(root) }),
  );
  lines[lines.length - 1] += base.built ? ` (built ${base.tag})` : ` (${base.tag} already built)`;
  timed(`image ${IMAGE} build`, () => buildImage({ repo: root, base: base.tag, tag: IMAGE }));
  lines.push(`image size: ${(imageSizeBytes(IMAGE) / 1e6).toFixed(0)} MB`);
  const servers = timed('PostgreSQL and NATS images (for docker-compose.yml)', () =>
    buildServerImages({ repo: root, base: base.tag }),
  );
  pruneOldLayers();
  const jest = spawnSync(
    'node',
    [
      '--experimental-vm-modules',
      'node_modules/jest/bin/jest.js',
      '--ci',
      '--runInBand',
      '--testMatch',
      '**/test/containers/**/*.containers-spec.ts',
      ...process.argv.slice(2),
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        PRECIS_IMAGE: IMAGE,
        PRECIS_CONTAINER_LABEL: LABEL,
        PRECIS_POSTGRES_IMAGE: servers.postgres,
        PRECIS_NATS_IMAGE: servers.nats,
        DATABASE_URL: services.databaseUrl,
        NATS_URL: services.natsUrl,
        FORCE_COLOR: '0',
      },
    },
  );
  status = jest.status ?? 1;
  lines.push(`container tests: ${status === 0 ? 'passed' : `FAILED (exit ${status})`}`);
} catch (err) {
  lines.push(`FAILED: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  const left = removeLabelled(LABEL);
  if (left) lines.push(`removed ${left} container(s) the tests left behind`);
  stopProvisioned();
}
console.log(`\n${COMMAND} finished in ${((Date.now() - started) / 60000).toFixed(1)} min`);
for (const line of lines) console.log(`  ${line}`);
process.exit(status);
