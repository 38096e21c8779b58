import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

// Node flags that write a V8 CPU profile into `dir` when the process exits (none without a dir).
export const cpuProfileArgs = (dir?: string): string[] =>
  dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];

// Starts a built service (apps/<name>/dist/main.js) with only the given environment and resolves
// once its /health/ready answers 200 (60 s at most). `nodeArgs`: e.g. --cpu-prof.
export function startServiceProcess(
  script: string,
  env: Record<string, string>,
  label: string,
  nodeArgs: string[] = [],
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...nodeArgs, script], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${env.HTTP_PORT}/health/ready`;
  return new Promise((resolveReady, reject) => {
    const deadline = Date.now() + 60_000;
    const probe = async () => {
      const ok = await fetch(url).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return resolveReady(child);
      if (Date.now() > deadline || child.exitCode !== null)
        return reject(new Error(`${label} on ${env.HTTP_PORT} did not get ready`));
      setTimeout(probe, 200);
    };
    void probe();
  });
}

// Profiles this process (V8 CPU profile) while `work` runs, written to <dir>/<name>.cpuprofile;
// without `dir` it only runs `work`.
export async function profiledHere<T>(
  dir: string | undefined,
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  if (!dir) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}
