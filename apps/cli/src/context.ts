import type { Command } from 'commander';
import type { DataSource } from 'typeorm';
import type { Output } from './output.js';
import { openRuntime, type PrecisRuntime } from './runtime/runtime.js';
import type { ServedHome } from './runtime/served-home.js';

export interface GlobalOptions {
  databaseUrl?: string;
  remote?: string;
  // Set when the command goes through `precis serve` on this home (remote is then its address).
  served?: ServedHome;
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
    if (!runtime.dataSource) throw databaseNeeded(command);
    return fn(runtime.dataSource);
  });
}

// A command with no gateway call, run with --remote or on a home `precis serve` holds.
export function databaseNeeded(command: Command): Error {
  const name = commandPath(command);
  const served = command.optsWithGlobals<GlobalOptions>().served;
  if (served)
    return new Error(
      `\`precis ${name}\` needs the embedded database itself, which \`precis serve\` (process ${served.pid}, ${served.url}) holds: stop serve, run this, then start serve again`,
    );
  return new Error(
    `\`precis ${name}\` needs a database: drop --remote (use --database-url or the embedded one)`,
  );
}

// `runs rm`, `export`: the command as typed, without the program's name.
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
