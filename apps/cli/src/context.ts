import type { Command } from 'commander';
import type { Output } from './output.js';
import { openRuntime, type PrecisRuntime } from './runtime/runtime.js';

export interface GlobalOptions {
  databaseUrl?: string;
  remote?: string;
}

export interface CliContext extends Output {
  env: NodeJS.ProcessEnv;
  cwd: string;
}

// Opens the runtime the global options select, runs the command, and always closes it.
export async function withRuntime<T>(
  ctx: CliContext,
  command: Command,
  fn: (runtime: PrecisRuntime) => Promise<T>,
): Promise<T> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const runtime = await openRuntime({
    databaseUrl: globals.databaseUrl,
    remote: globals.remote,
    env: ctx.env,
    cwd: ctx.cwd,
  });
  try {
    return await fn(runtime);
  } finally {
    await runtime.close();
  }
}
