#!/usr/bin/env node
// `npm run package`: the installable `precis` package. The CLI's built workspace packages go into
// the tarball as bundled dependencies (their dist/ only: the embedded database's template and
// the web page included); the registry dependencies they declare become the package's own.
// Usage: npm run package [-- --out DIR]   (default .pack/; run `npm run build` first)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? process.argv[outArg + 1] : join(root, '.pack');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

function fail(message) {
  console.error(`pack: ${message}`);
  process.exit(1);
}

// Every workspace by package name: its folder and manifest.
function workspaces() {
  const byName = new Map();
  for (const pattern of readJson(join(root, 'package.json')).workspaces) {
    const parent = join(root, pattern.replace(/\/\*$/, ''));
    const dirs = pattern.endsWith('/*')
      ? readdirSync(parent, { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => join(parent, d.name))
      : [parent];
    for (const dir of dirs) {
      if (!existsSync(join(dir, 'package.json'))) continue;
      const manifest = readJson(join(dir, 'package.json'));
      byName.set(manifest.name, { dir, manifest });
    }
  }
  return byName;
}

// The workspace packages the CLI needs at run time, in dependency order of discovery.
function closure(byName, start) {
  const seen = new Set();
  const visit = (name) => {
    for (const dep of Object.keys(byName.get(name).manifest.dependencies ?? {})) {
      if (!byName.has(dep) || seen.has(dep)) continue;
      seen.add(dep);
      visit(dep);
    }
  };
  visit(start);
  return [...seen].sort();
}

// The registry dependencies of the CLI and its workspace packages; one range per name.
function registryDependencies(byName, names) {
  const deps = new Map();
  for (const name of names) {
    for (const [dep, range] of Object.entries(byName.get(name).manifest.dependencies ?? {})) {
      if (byName.has(dep)) continue;
      const had = deps.get(dep);
      if (had && had.range !== range)
        fail(`${dep} is "${had.range}" in ${had.from} but "${range}" in ${name}: make them the same`);
      deps.set(dep, { range, from: name });
    }
  }
  return Object.fromEntries([...deps].sort().map(([dep, { range }]) => [dep, range]));
}

// A workspace package as installed: dist/ without source maps; a manifest without dependencies,
// since npm counts whatever a bundled package depends on as bundled too, and would not fetch it
// (the package's own manifest declares them all).
function stageWorkspace({ dir, manifest }, target) {
  const dist = join(dir, 'dist');
  if (!existsSync(dist)) fail(`${relative(root, dist)} is missing: run \`npm run build\` first`);
  cpSync(dist, join(target, 'dist'), { recursive: true, filter: (src) => !src.endsWith('.js.map') });
  const exports = Object.fromEntries(
    Object.entries(manifest.exports ?? {}).map(([key, value]) => [key, value.default ?? value]),
  );
  const { name, version, type, description, license } = manifest;
  writeFileSync(
    join(target, 'package.json'),
    `${JSON.stringify({ name, version, type, description, license, exports }, null, 2)}\n`,
  );
}

const byName = workspaces();
const cli = byName.get('@precis/cli');
const bundled = closure(byName, '@precis/cli');
const rootManifest = readJson(join(root, 'package.json'));
const stage = join(out, 'package');
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });

stageWorkspace(cli, stage);
cpSync(join(cli.dir, 'bin'), join(stage, 'bin'), { recursive: true });
cpSync(join(cli.dir, 'README.md'), join(stage, 'README.md'));
for (const name of bundled) stageWorkspace(byName.get(name), join(stage, 'node_modules', name));
// `precis init` copies them from there.
cpSync(join(root, 'examples'), join(stage, 'examples'), { recursive: true });

const manifest = {
  name: 'precis',
  version: cli.manifest.version,
  description: rootManifest.description,
  license: rootManifest.license,
  type: 'module',
  engines: rootManifest.engines,
  bin: cli.manifest.bin,
  exports: { '.': './dist/index.js' },
  dependencies: {
    ...registryDependencies(byName, ['@precis/cli', ...bundled]),
    ...Object.fromEntries(bundled.map((name) => [name, byName.get(name).manifest.version])),
  },
  bundleDependencies: bundled,
};
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

const [packed] = JSON.parse(
  execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: stage, encoding: 'utf8' }),
);
const mb = (bytes) => (bytes / 1e6).toFixed(1);
console.log(
  `packed ${join(relative(process.cwd(), out) || '.', packed.filename)}: ${mb(packed.size)} MB ` +
    `(${mb(packed.unpackedSize)} MB unpacked, ${packed.entryCount} files); ${bundled.length} ` +
    `workspace packages bundled, ${Object.keys(manifest.dependencies).length - bundled.length} ` +
    'registry dependencies',
);
