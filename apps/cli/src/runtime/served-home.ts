import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '@precis/db/pglite-prestart';

// What `precis serve` on an embedded home tells the CLI commands run on the same home, so they
// go through it instead of opening the database it holds.
export interface ServedHome {
  pid: number;
  // The web page and REST API.
  url: string;
  // The gRPC address the CLI calls (host:port).
  grpc: string;
  // The admin key this serve accepts until it stops (PRECIS_ADMIN_KEY).
  key: string;
  tls: boolean;
}

export const SERVED_FILE = 'serve.json';

function parse(text: string): ServedHome | null {
  try {
    const v = JSON.parse(text) as Partial<ServedHome>;
    const ok =
      Number.isInteger(v.pid) &&
      typeof v.url === 'string' &&
      typeof v.grpc === 'string' &&
      typeof v.key === 'string' &&
      typeof v.tls === 'boolean';
    return ok ? (v as ServedHome) : null;
  } catch {
    return null;
  }
}

// The serve running on this home, or null: no file, or one left by a serve that died.
export function readServedHome(home: string): ServedHome | null {
  let text: string;
  try {
    text = readFileSync(join(home, SERVED_FILE), 'utf8');
  } catch {
    return null;
  }
  const served = parse(text);
  return served && served.pid !== process.pid && isProcessAlive(served.pid) ? served : null;
}

// Writes the file (readable by this user only: it holds a key) and removes it when this
// process exits, however it exits.
export function announceServedHome(home: string, served: ServedHome): void {
  const path = join(home, SERVED_FILE);
  writeFileSync(path, `${JSON.stringify(served, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  process.once('exit', () => rmSync(path, { force: true }));
}

// Where the CLI reaches a server bound to host:port: a wildcard bind is reached on loopback.
export function dialAddress(host: string, port: number): string {
  const local = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return local.includes(':') ? `[${local}]:${port}` : `${local}:${port}`;
}
