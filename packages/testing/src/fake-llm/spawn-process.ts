import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FakeLlmStats, FakeRequestRecord } from './types.js';

// The built CLI (packages/testing/dist/fake-llm-cli.js), from src/ under Jest or from dist/.
const CLI = fileURLToPath(new URL('../../dist/fake-llm-cli.js', import.meta.url));

export interface FakeLlmProcess {
  url: string;
  baseURL: string;
  child: ChildProcess;
  stats(): Promise<FakeLlmStats>;
  // The server's request log (bodies included; the last maxLoggedRequests, 10,000 by default).
  requests(): Promise<FakeRequestRecord[]>;
  resetStats(): Promise<void>;
  // CPU seconds the server process used so far (Linux /proc; null elsewhere).
  cpuSeconds(): number | null;
  close(): Promise<void>;
}

// Runs the fake server as its own process on a free loopback port (`args` are CLI flags such as
// --latency, --capacity, --rules), so its work does not share the event loop of what is measured
// or tested, and it can be stopped or frozen like a real endpoint. Talks to its /_fake routes.
export async function spawnFakeLlmProcess(args: string[], startTimeoutMs = 15_000): Promise<FakeLlmProcess> {
  const child = spawn(process.execPath, [CLI, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const info = await new Promise<{ url: string; baseURL: string }>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`fake-llm (${CLI}) did not start within ${startTimeoutMs} ms: ${stderr}`));
    }, startTimeoutMs);
    child.stdout?.setEncoding('utf8').on('data', (c: string) => {
      buf += c;
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(JSON.parse(buf.slice(0, nl)));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fake-llm (${CLI}) exited with code ${code} before printing its URL: ${stderr}`));
    });
  });
  return {
    ...info,
    child,
    stats: async () => (await (await fetch(`${info.url}/_fake/stats`)).json()) as FakeLlmStats,
    requests: async () => (await (await fetch(`${info.url}/_fake/requests`)).json()) as FakeRequestRecord[],
    resetStats: async () => {
      await (await fetch(`${info.url}/_fake/reset`, { method: 'POST' })).arrayBuffer();
    },
    cpuSeconds: () => {
      try {
        // Fields 14 and 15 after the command name: utime and stime in clock ticks (100 Hz).
        const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return (Number(fields[11]) + Number(fields[12])) / 100;
      } catch {
        return null;
      }
    },
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
