import { spawn } from 'node:child_process';
import { type FakeLlmProcess, type FakeRequestRecord, spawnFakeLlmProcess } from '@precis/testing';
import { chatCalls, isPreflight, type JobOptions, JUDGE_REPLY, judgeCalls } from './job.js';

export const log = (msg: string) => process.stderr.write(`[peer-load] ${msg}\n`);

export interface TimedLine {
  // ms after the command was spawned
  t: number;
  stream: 'stdout' | 'stderr';
  text: string;
}

export interface CommandResult {
  startedAt: number;
  wallMs: number;
  code: number | null;
  lines: TimedLine[];
  stdout: string;
  stderr: string;
}

// Runs a command to its end, timing the whole of it and each output line (when it arrived).
export function timedCommand(
  command: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; label: string; echo?: boolean },
): Promise<CommandResult> {
  const startedAt = Date.now();
  const t0 = performance.now();
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: TimedLine[] = [];
  const text = { stdout: '', stderr: '' };
  for (const stream of ['stdout', 'stderr'] as const) {
    let pending = '';
    child[stream].setEncoding('utf8').on('data', (chunk: string) => {
      const t = performance.now() - t0;
      text[stream] += chunk;
      pending += chunk;
      const parts = pending.split(/\r?\n|\r/);
      pending = parts.pop() ?? '';
      for (const line of parts) {
        if (!line.trim()) continue;
        lines.push({ t, stream, text: line });
        if (opts.echo) log(`${opts.label} +${(t / 1000).toFixed(1)}s ${line}`);
      }
    });
  }
  return new Promise((resolve, reject) => {
    child.once('error', (err) =>
      reject(new Error(`${opts.label}: cannot start ${command}: ${err.message}`, { cause: err })),
    );
    child.once('close', (code) =>
      resolve({ startedAt, wallMs: performance.now() - t0, code, lines, ...text }),
    );
  });
}

export function failIfNonZero(res: CommandResult, what: string): void {
  if (res.code === 0) return;
  const tail = (text: string, n: number) => text.trim().split('\n').slice(-n).join('\n');
  throw new Error(
    `${what} exited with code ${res.code}\n--- its stderr (end):\n${tail(res.stderr, 12)}\n--- its stdout (end):\n${tail(res.stdout, 6)}`,
  );
}

export async function startFake(job: JobOptions): Promise<FakeLlmProcess> {
  return spawnFakeLlmProcess([
    '--capacity',
    String(job.capacity),
    '--latency',
    String(job.latencyMs),
    '--reply',
    JUDGE_REPLY,
  ]);
}

// What the fake server saw of one tool's job, on the server's clock (the same machine clock as
// Date.now() here), relative to when the tool's command started.
export interface ServerView {
  calls: number;
  judgeCalls: number;
  maxActive: number;
  // Judge calls only (a preflight ping is at preflightMs).
  firstCallMs: number | null;
  lastAnswerMs: number | null;
  preflightMs: number | null;
  fakeCpuSeconds: number | null;
  requests: FakeRequestRecord[];
}

export async function serverView(fake: FakeLlmProcess, startedAt: number): Promise<ServerView> {
  const [stats, requests] = await Promise.all([fake.stats(), fake.requests()]);
  const judged = judgeCalls(requests);
  const first = Math.min(...judged.map((r) => r.receivedAt));
  const last = Math.max(...judged.map((r) => r.respondedAt ?? 0));
  const preflight = chatCalls(requests).find(isPreflight);
  return {
    calls: stats.completedChats,
    judgeCalls: judged.length,
    maxActive: stats.maxActive,
    firstCallMs: Number.isFinite(first) ? first - startedAt : null,
    lastAnswerMs: Number.isFinite(last) && last > 0 ? last - startedAt : null,
    preflightMs: preflight ? preflight.receivedAt - startedAt : null,
    fakeCpuSeconds: fake.cpuSeconds(),
    requests: judged,
  };
}

// One tool (or one setting of it) running the job: the figures the table prints.
export interface VariantResult {
  label: string;
  wallMs: number;
  // The tool's own figure for the job (Precis: run created -> finished; promptfoo: "Duration").
  jobMs: number | null;
  jobSource: string;
  server: ServerView;
  // How many replies the tool parsed into a score, e.g. "2002/2002".
  parsed: string;
  notes: string[];
}

export function seconds(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? 'n/a' : (ms / 1000).toFixed(2);
}

// Only what a child needs: PATH and HOME plus `extra` (no DATABASE_URL leaking into the CLI).
export function childEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...extra };
}
