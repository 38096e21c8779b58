#!/usr/bin/env node
// `npm test`: provisions PostgreSQL and NATS (see lib/provision.mjs), then runs every check CI
// relies on: build, generated-code freshness, typecheck, lint, then on each tested Node release
// (lib/node-lts.mjs) npm install, build and the Jest suites (unit, integration against the real
// servers, end-to-end with services as separate processes), and the container test
// (npm run test:containers).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeBinDir, testedVersions } from './lib/node-lts.mjs';
import { provisionOrExit, stopProvisioned } from './lib/provision.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const extraJestArgs = process.argv.slice(2);
const started = Date.now();

const secs = (t0) => ((Date.now() - t0) / 1000).toFixed(1);

function step(name, cmd, args, env) {
  const t0 = Date.now();
  process.stderr.write(`\n=== ${name}: ${cmd} ${args.join(' ')}\n`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  if (res.status !== 0) {
    process.stderr.write(`=== ${name} FAILED after ${secs(t0)}s (exit ${res.status ?? res.signal})\n`);
    return false;
  }
  process.stderr.write(`=== ${name} ok (${secs(t0)}s)\n`);
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
const jestRuns = [];

// Every step runs even when an earlier one failed (except that nothing runs without a build),
// so one CI pass reports every problem; the exit code is non-zero if any step failed.
const results = [];
const run = (name, cmd, args) => {
  const passed = step(name, cmd, args, env);
  results.push({ name, passed });
  return passed;
};
// npm install on that Node: fails on an engine warning, which names a dependency not meant for it.
function installOn(label, nodeEnv) {
  const t0 = Date.now();
  process.stderr.write(`\n=== install (${label}): npm install\n`);
  const res = spawnSync('npm', ['install', '--no-audit', '--no-fund'], {
    cwd: root,
    env: nodeEnv,
    encoding: 'utf8',
  });
  const output = `${res.stdout}${res.stderr}`;
  process.stderr.write(output);
  const engine = output.split('\n').filter((l) => l.includes('EBADENGINE'));
  const passed = res.status === 0 && engine.length === 0;
  const why = res.status !== 0 ? `exit ${res.status}` : `${engine.length} EBADENGINE lines`;
  process.stderr.write(`=== install (${label}) ${passed ? 'ok' : `FAILED (${why})`} (${secs(t0)}s)\n`);
  results.push({ name: `install (${label})`, passed });
}

// Install, build and the Jest suites on one Node release ("current": the one running this).
function testOn(version) {
  let nodeEnv = env;
  let label = `Node ${process.versions.node}`;
  if (version !== 'current') {
    label = `Node ${version}`;
    try {
      nodeEnv = { ...env, PATH: `${nodeBinDir(version, join(root, '.cache'))}:${env.PATH}` };
    } catch (e) {
      process.stderr.write(`=== ${label} FAILED: ${e.message}\n`);
      results.push({ name: `jest (${label}: ${e.message})`, passed: false });
      return;
    }
    installOn(label, nodeEnv);
    const built = step(
      `build (${label})`,
      'npx',
      ['turbo', 'run', 'build', '--force', '--output-logs=errors-only'],
      nodeEnv,
    );
    results.push({ name: `build (${label})`, passed: built });
    if (!built) return;
  }
  const json = join(resultsDir, `jest-${version}.json`);
  rmSync(json, { force: true });
  const t0 = Date.now();
  const passed = step(
    `jest (${label})`,
    'node',
    [
      '--experimental-vm-modules',
      'node_modules/jest/bin/jest.js',
      '--ci',
      '--json',
      `--outputFile=${json}`,
      ...extraJestArgs,
    ],
    nodeEnv,
  );
  results.push({ name: `jest (${label})`, passed });
  jestRuns.push({ label, json, minutes: (Date.now() - t0) / 60000 });
}

if (run('build', 'npx', ['turbo', 'run', 'build', '--output-logs=errors-only'])) {
  run('generated code is fresh', 'node', ['scripts/proto.mjs', 'check']);
  run('generated API types are fresh', 'node', ['scripts/openapi.mjs', 'check']);
  run('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
  run('typecheck web page', 'npx', ['tsc', '-p', 'packages/web/app/tsconfig.json']);
  run('lint', 'npx', ['biome', 'check', '.']);
  run('proto lint', 'node', ['scripts/proto.mjs', 'lint']);
  run('proto breaking', 'node', ['scripts/proto.mjs', 'breaking']);
  // The suite on each tested Node release, after its own install (no EBADENGINE allowed) and build.
  for (const version of testedVersions()) testOn(version);
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
let failed = 0;
const minutes = ((Date.now() - started) / 60000).toFixed(1);
console.log(`\nnpm test finished in ${minutes} min`);
for (const r of results) console.log(`  ${r.passed ? 'ok    ' : 'FAILED'} ${r.name}`);
for (const { label, json, minutes } of jestRuns) {
  try {
    const report = JSON.parse(readFileSync(json, 'utf8'));
    failed += report.numFailedTests;
    console.log(
      `${label}: ${report.numPassedTests} passed, ${report.numFailedTests} failed (jest ${minutes.toFixed(1)} min)`,
    );
  } catch {
    failed++;
    console.log(`${label}: jest wrote no results`);
  }
}
process.exit(ok && failed === 0 ? 0 : 1);
