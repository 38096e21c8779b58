// `precis serve` (the built CLI) as its own process on a throwaway embedded database, and
// Debian's Chromium driven by playwright-core, for the web page's browser tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { freePort } from '@precis/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { repoRoot, tempDir, waitFor } from '../e2e/runs-support.js';

export const CLI = resolve(repoRoot, 'apps/cli/dist/main.js');
export const SCREENSHOTS = resolve(repoRoot, '.turbo/test-results/screenshots');

export interface Served {
  base: string;
  grpcAddress: string;
  key: string;
  // What it printed so far (stdout and stderr).
  output(): string;
  // SIGTERM, then its exit code.
  stop(): Promise<number | null>;
}

// A valid write key given in PRECIS_API_KEYS (the pattern `precis keys create` prints).
export const newKey = () => `precis_${randomBytes(32).toString('base64url')}`;

// Embedded unless env names DATABASE_URL and NATS_URL; with a key in PRECIS_API_KEYS unless
// `key: false` (then `precis serve` creates the first one itself).
// `cwd`: started there without PRECIS_HOME, so the home is found as the CLI finds it.
export async function startServe(
  env: Record<string, string> = {},
  opts: { key?: boolean; home?: string; cwd?: string } = {},
): Promise<Served> {
  const noHome = { dir: '', remove() {} };
  const home = opts.cwd ? noHome : opts.home ? { ...noHome, dir: opts.home } : tempDir('precis-serve-');
  const [port, grpc] = [await freePort(), await freePort()];
  const key = opts.key === false ? '' : newKey();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PRECIS_HOME: home.dir, LOG_LEVEL: 'warn' };
  // None of these may leak in from the test environment.
  delete childEnv.DATABASE_URL;
  delete childEnv.NATS_URL;
  if (opts.cwd) delete childEnv.PRECIS_HOME;
  Object.assign(childEnv, key ? { PRECIS_API_KEYS: key } : {}, env);
  const child: ChildProcess = spawn(
    process.execPath,
    [CLI, 'serve', '--port', String(port), '--grpc-port', String(grpc)],
    { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], cwd: opts.cwd },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  await waitFor('precis serve to listen', async () => out.includes('precis serve: web page'), 60_000).catch(
    (err: Error) => {
      child.kill('SIGKILL');
      throw new Error(`${err.message}; it wrote:\n${out.slice(-3000)}`);
    },
  );
  return {
    base: `http://127.0.0.1:${port}`,
    grpcAddress: `127.0.0.1:${grpc}`,
    key,
    output: () => out,
    stop: async () => {
      child.kill('SIGTERM');
      const code = await exited;
      home.remove();
      return code;
    },
  };
}

export function launchChromium(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

// A REST call with the key; the JSON body, or an error naming the status and the server's text.
export async function api<T>(s: Served, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${s.base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(`${path}: ${res.status} ${json.error}`);
  return json;
}

// The run as GET /api/v1/runs/{id} gives it once it is no longer pending or running.
export function runEnded<R extends { status: string }>(
  s: Served,
  id: string,
  timeoutMs = 120_000,
): Promise<R> {
  return waitFor(
    `run ${id} to finish`,
    async () => {
      const { run } = await api<{ run: R }>(s, `/api/v1/runs/${id}`);
      return run.status !== 'pending' && run.status !== 'running' && run;
    },
    timeoutMs,
  );
}

// Gives the page the server's key through its key form.
export async function enterKey(page: Page, key: string): Promise<void> {
  const form = page.getByTestId('key-form');
  await form.locator('input').fill(key);
  await form.getByRole('button', { name: 'Use key' }).click();
}
