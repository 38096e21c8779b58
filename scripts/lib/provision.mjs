// Makes sure a PostgreSQL and a NATS JetStream server are reachable for the tests (and Debian's
// Chromium is installed for the browser tests):
// use the ones configured (DATABASE_URL, NATS_URL) or running on the default ports, else start
// throwaway instances from installed binaries, else install them with apt-get when root,
// else stop with a one-line explanation.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DEFAULT_DB = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_NATS = 'nats://127.0.0.1:4222';
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const started = [];

export class ProvisionError extends Error {}

function log(msg) {
  process.stderr.write(`[provision] ${msg}\n`);
}

export function which(cmd, extraDirs = []) {
  for (const dir of [...(process.env.PATH ?? '').split(':'), ...extraDirs]) {
    if (dir && existsSync(join(dir, cmd))) return join(dir, cmd);
  }
  return null;
}

function run(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...opts });
}

// Installs Debian packages (one name or a list) when running as root with apt-get; false when
// that is not possible.
export function aptInstall(pkgs, what) {
  if (!isRoot || !which('apt-get')) return false;
  const names = [pkgs].flat();
  log(`${what} is not installed: installing ${names.join(' ')} with apt-get`);
  run('apt-get', ['update'], { stdio: 'inherit' });
  run('apt-get', ['install', '-y', ...names], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return true;
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// Resolves with the server's greeting (NATS sends INFO {...}), or null when nothing listens.
function probe(host, port, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let data = '';
    const done = (value) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeoutMs, () => done(data || ''));
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8');
      if (data.includes('\n')) done(data);
    });
    socket.on('error', () => done(null));
  });
}

async function pgWorks(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function waitFor(check, what, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new ProvisionError(`${what} did not become ready within ${timeoutMs / 1000}s`);
}

function pgBinDir() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(base, v, 'bin', 'initdb'))) return join(base, v, 'bin');
  return null;
}

async function startThrowawayPostgres(binDir) {
  const dir = mkdtempSync(join(tmpdir(), 'precis-pg-'));
  const port = await freePort();
  const asPostgres = isRoot ? ['runuser', '-u', 'postgres', '--'] : [];
  if (isRoot) run('chown', ['-R', 'postgres', dir]);
  const exec = (bin, args) => {
    const argv = [...asPostgres, join(binDir, bin), ...args];
    return run(argv[0], argv.slice(1));
  };
  log(`starting a throwaway PostgreSQL in ${dir} on port ${port}`);
  exec('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  exec('pg_ctl', [
    '-D',
    join(dir, 'data'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    '-l',
    join(dir, 'log'),
    '-w',
    'start',
  ]);
  started.push(() => exec('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', 'stop']));
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

async function ensurePostgres() {
  const configured = process.env.DATABASE_URL;
  const url = configured || DEFAULT_DB;
  if (await pgWorks(url)) return url;
  if (configured)
    throw new ProvisionError(
      `DATABASE_URL=${redact(configured)} is set but PostgreSQL does not answer there`,
    );
  if (which('pg_ctlcluster')) {
    try {
      const clusters = readdirSync('/etc/postgresql');
      for (const v of clusters) run('pg_ctlcluster', ['--skip-systemctl-redirect', v, 'main', 'start']);
      if (await pgWorks(url)) return url;
    } catch {
      // fall through to a throwaway cluster
    }
  }
  let binDir = pgBinDir();
  if (!binDir && aptInstall('postgresql', 'PostgreSQL')) binDir = pgBinDir();
  if (!binDir) {
    throw new ProvisionError(
      'PostgreSQL is not reachable at 127.0.0.1:5432, no PostgreSQL binaries are installed, and installing needs root: set DATABASE_URL or install postgresql',
    );
  }
  const throwaway = await startThrowawayPostgres(binDir);
  await waitFor(() => pgWorks(throwaway), 'the throwaway PostgreSQL');
  return throwaway;
}

async function natsHasJetStream(url) {
  const u = new URL(url.replace(/^nats:/, 'http:'));
  const line = await probe(u.hostname, Number(u.port || 4222));
  if (line === null) return false;
  if (!line.startsWith('INFO ')) return false;
  try {
    return JSON.parse(line.slice(5)).jetstream === true;
  } catch {
    return false;
  }
}

async function ensureNats() {
  const configured = process.env.NATS_URL;
  const url = configured || DEFAULT_NATS;
  if (await natsHasJetStream(url)) return url;
  if (configured)
    throw new ProvisionError(`NATS_URL=${configured} is set but no NATS server with JetStream answers there`);
  let bin = which('nats-server', ['/usr/sbin', '/usr/local/bin']);
  if (!bin && aptInstall('nats-server', 'nats-server'))
    bin = which('nats-server', ['/usr/sbin', '/usr/local/bin']);
  if (!bin) {
    throw new ProvisionError(
      'NATS is not reachable at 127.0.0.1:4222, nats-server is not installed, and installing needs root: set NATS_URL or install nats-server',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'precis-nats-'));
  const port = await freePort();
  log(`starting a throwaway nats-server (JetStream) in ${dir} on port ${port}`);
  const child = spawn(bin, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], {
    stdio: 'ignore',
    detached: true,
  });
  child.unref();
  started.push(() => process.kill(child.pid, 'SIGTERM'));
  const throwaway = `nats://127.0.0.1:${port}`;
  await waitFor(() => natsHasJetStream(throwaway), 'the throwaway nats-server');
  return throwaway;
}

// Debian's Chromium for the browser tests (driven by playwright-core; never `playwright install`).
function ensureChromium() {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!existsSync(configured)) throw new ProvisionError(`CHROMIUM_PATH=${configured} does not exist`);
    return configured;
  }
  let bin = which('chromium', ['/usr/bin']);
  if (!bin && aptInstall('chromium', 'chromium (for the browser tests)'))
    bin = which('chromium', ['/usr/bin']);
  if (!bin)
    throw new ProvisionError(
      'chromium is not installed and installing needs root: `apt-get install -y chromium`, or set CHROMIUM_PATH',
    );
  return bin;
}

function redact(url) {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

// `chromium: false`: only the servers (the container test drives no browser).
export async function provisionServices({ chromium = true } = {}) {
  const databaseUrl = await ensurePostgres();
  const natsUrl = await ensureNats();
  const chromiumPath = chromium ? ensureChromium() : 'not needed';
  log(`PostgreSQL: ${redact(databaseUrl)}  NATS: ${natsUrl}  Chromium: ${chromiumPath}`);
  return { databaseUrl, natsUrl, chromiumPath };
}

// provisionServices() for a command line script: a service that cannot be had ends the process
// with exit 1 and one line naming the command (`npm test: ...`).
export async function provisionOrExit(command, opts) {
  try {
    return await provisionServices(opts);
  } catch (err) {
    if (err instanceof ProvisionError) {
      console.error(`${command}: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}

export function stopProvisioned() {
  for (const stop of started.reverse()) {
    try {
      stop();
    } catch {
      // best effort: the throwaway instances live in temp directories
    }
  }
}
