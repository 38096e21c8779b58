#!/usr/bin/env node
// Protobuf contracts: `generate` (buf + ts-proto into packages/contracts/src/gen), `lint` (buf lint),
// `check` (regenerate into a temp dir and fail if the committed code differs) and `breaking [ref]`
// (buf breaking against the last release tag, else the previous commit, or the ref given).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const binDir = join(root, 'node_modules', '.bin');
const GEN_DIR = 'packages/contracts/src/gen';

function fail(message) {
  console.error(`proto: ${message}`);
  process.exit(1);
}

// buf finds the ts-proto plugin (buf.gen.yaml: `local: protoc-gen-ts_proto`) on PATH, so the
// pinned root devDependencies come first.
function buf(args) {
  for (const bin of ['buf', 'protoc-gen-ts_proto']) {
    if (!existsSync(join(binDir, bin))) {
      fail(`${relative(root, join(binDir, bin))} is missing; run \`npm install\` at the repository root`);
    }
  }
  const res = spawnSync(join(binDir, 'buf'), args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}` },
  });
  if (res.error) fail(`cannot run buf: ${res.error.message}`);
  return res.status ?? 1;
}

async function listFiles(dir, base = dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(p, base)));
    else if (entry.isFile()) out.push(relative(base, p));
  }
  return out.sort();
}

async function check() {
  const tmp = await mkdtemp(join(tmpdir(), 'precis-proto-'));
  try {
    if (buf(['generate', '--output', tmp]) !== 0) fail('buf generate failed (see above)');
    const fresh = join(tmp, GEN_DIR);
    const committed = join(root, GEN_DIR);
    const freshFiles = await listFiles(fresh);
    const committedFiles = await listFiles(committed);
    const problems = [];
    for (const f of freshFiles) {
      if (!committedFiles.includes(f)) {
        problems.push(`missing: ${GEN_DIR}/${f}`);
      } else if (!(await readFile(join(fresh, f))).equals(await readFile(join(committed, f)))) {
        problems.push(`out of date: ${GEN_DIR}/${f}`);
      }
    }
    for (const f of committedFiles) {
      if (!freshFiles.includes(f)) problems.push(`no longer generated: ${GEN_DIR}/${f}`);
    }
    if (problems.length) {
      console.error(`proto: generated code is stale (${problems.length} file(s)):`);
      for (const p of problems) console.error(`  ${p}`);
      fail('run `npm run proto` and commit packages/contracts/src/gen');
    }
    console.log(`proto: ${GEN_DIR} is up to date (${freshFiles.length} files)`);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

// What the contracts are compared with: the ref given, the last release tag, else the previous
// commit; null when there is none (a first commit, a shallow clone).
function baseRef(given) {
  if (given) return given;
  const git = (args) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  const tag = git(['describe', '--tags', '--abbrev=0']);
  if (tag.status === 0 && tag.stdout.trim()) return tag.stdout.trim();
  return git(['rev-parse', '--verify', '--quiet', 'HEAD~1']).status === 0 ? 'HEAD~1' : null;
}

function breaking(given) {
  const ref = baseRef(given);
  if (!ref) {
    console.log('proto: breaking skipped: no release tag and no previous commit to compare with');
    return;
  }
  if (buf(['breaking', '--against', `.git#ref=${ref},subdir=.`]) !== 0)
    fail(
      `proto/ breaks the contracts of ${ref} (see above): add fields, reserve removed ones, never renumber`,
    );
  console.log(`proto: no breaking change against ${ref}`);
}

const command = process.argv[2];
switch (command) {
  case 'generate':
    if (buf(['generate']) !== 0) fail('buf generate failed (see above)');
    console.log(`proto: generated ${(await listFiles(join(root, GEN_DIR))).length} files in ${GEN_DIR}`);
    break;
  case 'lint':
    if (buf(['lint']) !== 0) fail('lint errors in proto/ (see above)');
    console.log('proto: lint ok');
    break;
  case 'check':
    await check();
    break;
  case 'breaking':
    breaking(process.argv[3]);
    break;
  default:
    fail(`unknown command ${JSON.stringify(command ?? '')}; use one of: generate, lint, check, breaking`);
}
