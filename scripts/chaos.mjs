#!/usr/bin/env node
// `npm run chaos`: the full chaos test (test/chaos/chaos.e2e-spec.ts, whose small form runs in
// `npm test`): 10 SIGKILLs of random service processes, one NATS and one PostgreSQL restart and
// model faults, over a larger run. PRECIS_CHAOS_* variables set already are kept (see
// test/chaos/chaos-workload.ts); the outcome is written to .turbo/test-results/chaos.json.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { provisionOrExit, stopProvisioned } from './lib/provision.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const FULL = {
  PRECIS_CHAOS_KILLS: '10',
  PRECIS_CHAOS_DOCUMENTS: '8',
  // This seed's kills reach every kind of process (gateway, summarization, scoring, both verifiers).
  PRECIS_CHAOS_SEED: '9',
  PRECIS_CHAOS_TIMEOUT_MS: '900000',
};

const build = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

const services = await provisionOrExit('npm run chaos');
const env = { ...FULL, ...process.env, DATABASE_URL: services.databaseUrl, NATS_URL: services.natsUrl };
const jest = spawnSync(
  'node',
  ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--ci', 'test/chaos'],
  { cwd: root, stdio: 'inherit', env },
);
stopProvisioned();
process.exit(jest.status ?? 1);
