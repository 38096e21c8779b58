// Runs a built service (apps/<name>/dist/main.js) as a separate process for end-to-end tests:
// collects its JSON log lines and stderr, waits for /health/ready, stops it with a signal.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';

export type ServiceName = 'gateway' | 'ingestion' | 'retrieval' | 'summarization' | 'verifier' | 'scoring';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServiceProcess {
  name: ServiceName;
  child: ChildProcess;
  httpPort: number;
  // Parsed JSON lines of stdout; anything else on stdout lands in `rawStdout`.
  logs: Record<string, unknown>[];
  rawStdout: string[];
  stderr(): string;
  exited: Promise<Exit>;
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export function builtEntry(repoRoot: string, name: ServiceName): string {
  const entry = join(repoRoot, 'apps', name, 'dist', 'main.js');
  if (!existsSync(entry)) {
    throw new Error(
      `${entry} is missing: build first with \`npx turbo run build --filter=@precis/${name}...\``,
    );
  }
  return entry;
}

export function startService(
  repoRoot: string,
  name: ServiceName,
  env: Record<string, string>,
): ServiceProcess {
  const httpPort = Number(env.HTTP_PORT);
  const child = spawn(process.execPath, [builtEntry(repoRoot, name)], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const rawStdout: string[] = [];
  let stderr = '';
  let pending = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines.filter((l) => l.trim())) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        rawStdout.push(line);
      }
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    name,
    child,
    httpPort,
    logs,
    rawStdout,
    stderr: () => stderr,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

// Its last log lines and stderr, for an error or a failed assertion.
export function describeProcess(proc: ServiceProcess): string {
  const tail = proc.logs
    .slice(-8)
    .map((l) => `${String(l.level)} ${String(l.msg)}`)
    .join(' | ');
  return `${proc.name}: stderr=${JSON.stringify(proc.stderr().slice(-2000))} last logs: ${tail}`;
}

// Polls GET /health/ready until it answers 200; fails early if the process exits.
export async function waitReady(proc: ServiceProcess, timeoutMs = 60_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  let exited: Exit | null = null;
  void proc.exited.then((e) => {
    exited = e;
  });
  let last = '';
  while (Date.now() < deadline) {
    if (exited)
      throw new Error(
        `${proc.name} exited (${JSON.stringify(exited)}) before becoming ready; ${describeProcess(proc)}`,
      );
    try {
      const res = await fetch(`http://127.0.0.1:${proc.httpPort}/health/ready`);
      const body = (await res.json()) as Record<string, unknown>;
      if (res.status === 200) return body;
      last = `${res.status} ${JSON.stringify(body)}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${proc.name} not ready after ${timeoutMs} ms (last: ${last}); ${describeProcess(proc)}`);
}
