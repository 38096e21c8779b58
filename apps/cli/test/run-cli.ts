import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = resolve(CLI_DIR, '../..');
export const DATASETS = resolve(REPO_ROOT, '../shared/datasets');
const BIN = resolve(CLI_DIR, 'bin/precis.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function assertBuilt(): void {
  if (!existsSync(resolve(CLI_DIR, 'dist/main.js'))) {
    throw new Error('apps/cli is not built: run `npx turbo run build --filter=@precis/cli...` first');
  }
}

// Runs the built `precis` binary as a child process with exactly the given extra environment.
export function runCli(
  args: string[],
  env: Record<string, string | undefined>,
  cwd = REPO_ROOT,
): Promise<CliRun> {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.PRECIS_HOME;
  delete base.NODE_OPTIONS;
  return new Promise((resolvePromise) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd, env: { ...base, ...env }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolvePromise({ code, stdout, stderr });
      },
    );
  });
}
