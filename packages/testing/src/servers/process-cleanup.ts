import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What to undo if this process dies before disposing a server. */
export interface Cleanup {
  kill?: number;
  exec?: string[];
  rm?: string;
}

// A detached watcher process undoes the registered cleanups once this process is gone (normal
// exit, crash or SIGKILL): under jest, `process.on('exit')` of a test file never fires.
const REAPER = `
const [pid, file] = process.argv.slice(1);
const fs = require('node:fs');
const cp = require('node:child_process');
const alive = () => { try { process.kill(Number(pid), 0); return true; } catch { return false; } };
const timer = setInterval(() => {
  if (alive()) return;
  clearInterval(timer);
  let items = [];
  try { items = JSON.parse(fs.readFileSync(file, 'utf8')); } catch {}
  for (const it of items.reverse()) {
    try {
      if (it.kill) process.kill(it.kill, 'SIGKILL');
      if (it.exec) cp.execFileSync(it.exec[0], it.exec.slice(1), { stdio: 'ignore' });
      if (it.rm) fs.rmSync(it.rm, { recursive: true, force: true });
    } catch {}
  }
  fs.rmSync(require('node:path').dirname(file), { recursive: true, force: true });
}, 300);
`;

let registry: { file: string; items: Map<number, Cleanup>; next: number } | undefined;

function save(): void {
  if (registry) writeFileSync(registry.file, JSON.stringify([...registry.items.values()]));
}

/** Registers a cleanup run if this process dies first; the returned function unregisters it. */
export function onProcessExit(cleanup: Cleanup): () => void {
  if (!registry) {
    const dir = mkdtempSync(join(tmpdir(), 'precis-reaper-'));
    registry = { file: join(dir, 'cleanups.json'), items: new Map(), next: 0 };
    save();
    const reaper = spawn(process.execPath, ['-e', REAPER, String(process.pid), registry.file], {
      detached: true,
      stdio: 'ignore',
    });
    reaper.unref();
  }
  const reg = registry;
  const id = reg.next++;
  reg.items.set(id, cleanup);
  save();
  return () => {
    if (reg.items.delete(id)) save();
  };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// Polls until check() is true; the error names what did not come up.
export async function pollUntil(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`${what} did not become ready within ${timeoutMs} ms`);
}
