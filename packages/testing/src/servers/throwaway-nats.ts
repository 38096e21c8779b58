import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, onProcessExit, pollUntil, removeDir } from './process-cleanup.js';

export interface ThrowawayNatsOptions {
  // nats-server binary (default: NATS_SERVER_BIN, else /usr/sbin or /usr/local/bin, else PATH).
  bin?: string;
  // How long start() waits for the server to accept clients with JetStream (default 15 s).
  startTimeoutMs?: number;
}

/** A nats-server with JetStream on a free port and its own store dir, for outage tests. */
export interface ThrowawayNats {
  readonly url: string;
  readonly port: number;
  /** JetStream store dir (`-sd`): kept across stop()/start(), so streams and consumers survive. */
  readonly storeDir: string;
  readonly running: boolean;
  /** Stops the server (SIGTERM, or SIGKILL with `{ kill: true }`); clients see a disconnect. */
  stop(opts?: { kill?: boolean }): Promise<void>;
  /** Starts it again on the same port with the same store dir. */
  start(): Promise<void>;
  /** Stops it and removes its store dir (idempotent). */
  dispose(): Promise<void>;
}

function findBin(explicit?: string): string {
  const candidates = [
    explicit,
    process.env.NATS_SERVER_BIN,
    '/usr/sbin/nats-server',
    '/usr/local/bin/nats-server',
    ...(process.env.PATH ?? '').split(':').map((d) => join(d, 'nats-server')),
  ];
  const found = candidates.find((c): c is string => !!c && existsSync(c));
  if (!found) throw new Error('nats-server is not installed: install it or set NATS_SERVER_BIN');
  return found;
}

// Resolves true once the server greets with an INFO line announcing JetStream.
function hasJetStream(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let data = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8');
      if (data.includes('\n')) done(/^INFO .*"jetstream":true/.test(data));
    });
    socket.on('error', () => done(false));
  });
}

export async function startThrowawayNats(opts: ThrowawayNatsOptions = {}): Promise<ThrowawayNats> {
  const bin = findBin(opts.bin);
  const startTimeoutMs = opts.startTimeoutMs ?? 15_000;
  const storeDir = mkdtempSync(join(tmpdir(), 'precis-nats-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let disposed = false;
  const unhookDir = onProcessExit({ rm: storeDir });
  let unhookChild = () => {};

  const start = async () => {
    if (disposed) throw new Error(`throwaway NATS on port ${port} was disposed`);
    if (child) return;
    const proc = spawn(bin, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
      stdio: 'ignore',
    });
    child = proc;
    if (proc.pid) unhookChild = onProcessExit({ kill: proc.pid });
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    void exited.then(() => {
      unhookChild();
      if (child === proc) child = undefined;
    });
    await pollUntil(() => hasJetStream(port), `nats-server on port ${port}`, startTimeoutMs);
  };
  const stop = async ({ kill = false } = {}) => {
    const proc = child;
    if (!proc) return;
    proc.kill(kill ? 'SIGKILL' : 'SIGTERM');
    await exited;
    child = undefined;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    get running() {
      return child !== undefined;
    },
    stop,
    start,
    async dispose() {
      if (disposed) return;
      await stop({ kill: true });
      disposed = true;
      removeDir(storeDir);
      unhookDir();
    },
  };
}
