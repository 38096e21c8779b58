import type { Command } from 'commander';
import type { DataSource } from 'typeorm';
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

// For commands that work on the database directly (no gRPC equivalent yet).
export async function withDataSource<T>(
  ctx: CliContext,
  command: Command,
  fn: (ds: DataSource) => Promise<T>,
): Promise<T> {
  return withRuntime(ctx, command, async (runtime) => {
    if (!runtime.dataSource) {
      throw new Error(
        `\`precis ${command.name()}\` needs a database: drop --remote (use --database-url or the embedded one)`,
      );
    }
    return fn(runtime.dataSource);
  });
}
