#!/usr/bin/env node
// `npm run bench [name...] [-- --flag value]`: builds, then runs every benchmark module
// (bench/dist/<name>.bench.js), prints a table and writes bench-results/<name>.json.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { provisionOrExit, stopProvisioned } from './lib/provision.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Benchmark names come first; everything from the first flag (or after a literal `--`) goes to the
// benchmarks, values included: `npm run bench annotation-throughput -- --rounds 5` reaches this
// script as `annotation-throughput --rounds 5`, since npm drops the `--`.
const argv = process.argv.slice(2);
const split = argv.findIndex((a) => a.startsWith('-'));
const names = split === -1 ? argv : argv.slice(0, split);
const benchArgs = split === -1 ? [] : argv.slice(argv[split] === '--' ? split + 1 : split);

// Every benchmark lives in the bench/ workspace, outside the packages' shipped code.
function benchmarkDirs() {
  return [{ dir: join(root, 'bench', 'dist'), workspace: 'bench' }];
}

function findBenchmarks() {
  const found = [];
  for (const { dir, workspace } of benchmarkDirs()) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)) {
      if (file.endsWith('.bench.js'))
        found.push({ name: file.replace(/\.bench\.js$/, ''), file: join(dir, file), workspace });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

const build = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

const all = findBenchmarks();
const selected = names.length ? all.filter((b) => names.includes(b.name)) : all;
if (names.length && selected.length !== names.length) {
  const known = all.map((b) => b.name).join(', ');
  console.error(
    `npm run bench: unknown benchmark(s) ${names.filter((n) => !all.some((b) => b.name === n)).join(', ')}; known: ${known}`,
  );
  process.exit(2);
}

const services = await provisionOrExit('npm run bench');
process.env.DATABASE_URL = services.databaseUrl;
process.env.NATS_URL = services.natsUrl;
process.env.CHROMIUM_PATH = services.chromiumPath;

// A fixed single-thread workload (JSON and hashing, as the services do; best of 3), before and
// after each benchmark: figures compare only in its light (it read 279 to 517 ms on one machine
// within an hour, and the kgds-verify figures moved with it).
function calibrationMs() {
  const rows = Array.from({ length: 20_000 }, (_, i) => ({
    id: `task-${i}`,
    score: i / 7,
    text: 'a b c d e f',
  }));
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    for (let i = 0; i < 10; i++)
      createHash('sha256')
        .update(JSON.stringify(JSON.parse(JSON.stringify(rows))))
        .digest();
    best = Math.min(best, performance.now() - started);
  }
  return Math.round(best);
}
const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', node: process.version };
process.stderr.write(`machine: ${machine.cpuModel}, ${machine.cpus} cores, Node ${machine.node}\n`);

const outDir = join(root, 'bench-results');
mkdirSync(outDir, { recursive: true });
const results = [];
let failed = false;
for (const bench of selected) {
  process.stderr.write(`\n--- ${bench.name} (${bench.workspace})\n`);
  const calibration = { calibrationMs: calibrationMs() };
  const started = Date.now();
  try {
    const mod = await import(pathToFileURL(bench.file).href);
    const result = await mod.run(benchArgs);
    const record = {
      ...result,
      benchmark: bench.name,
      workspace: bench.workspace,
      startedAt: new Date(started).toISOString(),
      wallSeconds: (Date.now() - started) / 1000,
      machine: { ...machine, ...calibration, calibrationAfterMs: calibrationMs() },
    };
    writeFileSync(join(outDir, `${bench.name}.json`), `${JSON.stringify(record, null, 2)}\n`);
    results.push(record);
    console.log(`\n${result.name}: ${result.description}`);
    console.log(
      `  (CPU calibration ${calibration.calibrationMs} ms before, ${record.machine.calibrationAfterMs} ms after; lower is faster)`,
    );
    const width = Math.max(...Object.keys(result.metrics).map((k) => k.length));
    for (const [k, v] of Object.entries(result.metrics)) {
      console.log(
        `  ${k.padEnd(width)}  ${typeof v === 'number' ? (Number.isInteger(v) ? v : v.toFixed(4)) : v}`,
      );
    }
  } catch (err) {
    failed = true;
    console.error(`benchmark ${bench.name} failed: ${err instanceof Error ? err.stack : err}`);
  }
}
stopProvisioned();
console.log(`\nresults written to ${join('bench-results', '')} (${results.length} benchmark(s))`);
process.exit(failed ? 1 : 0);
