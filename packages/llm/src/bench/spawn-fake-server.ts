import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { FakeLlmStats } from '@precis/testing';

export interface BenchServer {
  baseURL: string;
  stats(): Promise<FakeLlmStats>;
  resetStats(): Promise<void>;
  close(): Promise<void>;
}

// Runs the built fake-llm CLI (packages/testing/dist/fake-llm-cli.js) as a child process on a
// free loopback port and talks to its /_fake control routes.
export async function spawnFakeServer(args: string[]): Promise<BenchServer> {
  const cli = join(dirname(fileURLToPath(import.meta.resolve('@precis/testing'))), 'fake-llm-cli.js');
  const child = spawn(process.execPath, [cli, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`fake-llm CLI (${cli}) exited with code ${code} before printing its URL`);
  });
  const line = once(createInterface({ input: child.stdout }), 'line').then(([l]) => l as string);
  const info = JSON.parse(await Promise.race([line, exited])) as { url: string; baseURL: string };
  exited.catch(() => {});
  return {
    baseURL: info.baseURL,
    stats: async () => (await (await fetch(`${info.url}/_fake/stats`)).json()) as FakeLlmStats,
    resetStats: async () => {
      await (await fetch(`${info.url}/_fake/reset`, { method: 'POST' })).arrayBuffer();
    },
    close: async () => {
      if (child.exitCode !== null) return;
      const done = once(child, 'exit');
      child.kill('SIGTERM');
      await done;
    },
  };
}
