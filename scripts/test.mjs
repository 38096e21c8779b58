#!/usr/bin/env node
// `npm test`: provisions PostgreSQL and NATS (see lib/provision.mjs), then runs every check CI
// relies on: build, generated-code freshness, typecheck, lint, the Jest suites (unit,
// integration against the real servers, end-to-end with services as separate processes) and the
// container test (npm run test:containers).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { provisionOrExit, stopProvisioned } from './lib/provision.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const extraJestArgs = process.argv.slice(2);
const started = Date.now();

function step(name, cmd, args, env) {
  const t0 = Date.now();
  process.stderr.write(`\n=== ${name}: ${cmd} ${args.join(' ')}\n`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (res.status !== 0) {
    process.stderr.write(`=== ${name} FAILED after ${secs}s (exit ${res.status ?? res.signal})\n`);
    return false;
  }
  process.stderr.write(`=== ${name} ok (${secs}s)\n`);
  return true;
}

const services = await provisionOrExit('npm test');

const env = {
  ...process.env,
  DATABASE_URL: services.databaseUrl,
  NATS_URL: services.natsUrl,
  CHROMIUM_PATH: services.chromiumPath,
  FORCE_COLOR: '0',
};
const resultsDir = join(root, '.turbo', 'test-results');
mkdirSync(resultsDir, { recursive: true });
const jestJson = join(resultsDir, 'jest.json');
rmSync(jestJson, { force: true });

// Every step runs even when an earlier one failed (except that nothing runs without a build),
// so one CI pass reports every problem; the exit code is non-zero if any step failed.
const results = [];
const run = (name, cmd, args) => {
  const passed = step(name, cmd, args, env);
  results.push({ name, passed });
  return passed;
};
if (run('build', 'npx', ['turbo', 'run', 'build', '--output-logs=errors-only'])) {
  run('generated code is fresh', 'node', ['scripts/proto.mjs', 'check']);
  run('generated API types are fresh', 'node', ['scripts/openapi.mjs', 'check']);
  run('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
  run('typecheck web page', 'npx', ['tsc', '-p', 'packages/web/app/tsconfig.json']);
  run('lint', 'npx', ['biome', 'check', '.']);
  run('proto lint', 'node', ['scripts/proto.mjs', 'lint']);
  run('proto breaking', 'node', ['scripts/proto.mjs', 'breaking']);
  run('jest', 'node', [
    '--experimental-vm-modules',
    'node_modules/jest/bin/jest.js',
    '--ci',
    '--json',
    `--outputFile=${jestJson}`,
    ...extraJestArgs,
  ]);
  // The image and the cluster as containers (podman; about 3 minutes here, see the README).
  const skip =
    process.env.PRECIS_SKIP_CONTAINERS === '1'
      ? 'PRECIS_SKIP_CONTAINERS=1'
      : extraJestArgs.length > 0 && 'jest arguments select a subset';
  if (skip) results.push({ name: `containers (skipped: ${skip})`, passed: true });
  else run('containers', 'node', ['scripts/test-containers.mjs']);
}
const ok = results.every((r) => r.passed);

stopProvisioned();
let passed = 0;
let failed = 0;
try {
  const report = JSON.parse(readFileSync(jestJson, 'utf8'));
  passed = report.numPassedTests;
  failed = report.numFailedTests;
} catch {
  // jest did not run (an earlier step failed)
}
const minutes = ((Date.now() - started) / 60000).toFixed(1);
console.log(`\nnpm test finished in ${minutes} min`);
for (const r of results) console.log(`  ${r.passed ? 'ok    ' : 'FAILED'} ${r.name}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
