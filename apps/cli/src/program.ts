import { loadFamilies } from '@precis/families';
import { Command, CommanderError } from 'commander';
import { datasetsCommand } from './commands/datasets.command.js';
import { exportCommand } from './commands/export.command.js';
import { importCommand } from './commands/import.command.js';
import { ingestCommand } from './commands/ingest.command.js';
import { initCommand } from './commands/init.command.js';
import { keysCommand } from './commands/keys.command.js';
import { leaderboardCommand } from './commands/leaderboard.command.js';
import { registerMetaCommands } from './commands/meta/index.js';
import { metaQuery } from './commands/meta/meta-query.js';
import { modelsCommand } from './commands/models.command.js';
import { pluginCommand } from './commands/plugin.command.js';
import { reportCommand } from './commands/report.command.js';
import { rescoreCommand } from './commands/rescore.command.js';
import { retrievalCommand } from './commands/retrieval.command.js';
import { runCommand } from './commands/run.command.js';
import { runsCommand } from './commands/runs.command.js';
import { serveCommand } from './commands/serve.command.js';
import type { CliContext } from './context.js';
import { routeThroughServe } from './runtime/serve-route.js';

export const CLI_VERSION = '0.1.0';

export function buildProgram(ctx: CliContext): Command {
  const program = new Command('precis')
    .description(
      'Precis: benchmark LLM summarization (embedded by default; PostgreSQL or a gateway on request)',
    )
    .version(CLI_VERSION)
    .option(
      '--database-url <url>',
      'use this PostgreSQL database instead of the embedded one (default: $DATABASE_URL, else PGlite in $PRECIS_HOME or ./.precis)',
    )
    .option('--remote <host:port>', 'send the command to a Precis gateway over gRPC')
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
    });
  program.addCommand(initCommand(ctx));
  program.addCommand(ingestCommand(ctx));
  program.addCommand(datasetsCommand(ctx));
  program.addCommand(runCommand(ctx));
  program.addCommand(runsCommand(ctx));
  program.addCommand(reportCommand(ctx));
  program.addCommand(leaderboardCommand(ctx));
  program.addCommand(exportCommand(ctx, CLI_VERSION));
  program.addCommand(importCommand(ctx));
  program.addCommand(pluginCommand(ctx));
  program.addCommand(rescoreCommand(ctx));
  program.addCommand(retrievalCommand(ctx));
  program.addCommand(keysCommand(ctx));
  program.addCommand(modelsCommand(ctx));
  program.addCommand(serveCommand(ctx));
  registerMetaCommands(program, {
    stdout: ctx.stdout,
    metaQuery: (command, q) => metaQuery(ctx, command, q),
  });
  program.hook('preAction', (_program, action) => routeThroughServe(ctx, program, action));
  // Every (sub)command reports usage errors through runCli instead of calling process.exit.
  const exitOverride = (cmd: Command) => {
    cmd.exitOverride();
    for (const sub of cmd.commands) exitOverride(sub);
  };
  exitOverride(program);
  return program;
}

// Runs the CLI and returns the exit code; one clear line on stderr for any failure.
export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  process.exitCode = undefined;
  try {
    // `precis ingest`'s kinds and every spec check come from the loaded families.
    await loadFamilies(ctx.env, ctx.cwd);
    const program = buildProgram(ctx);
    await program.parseAsync(argv);
    // A command that finished with an outcome to report (e.g. `run`: 3 when work failed) set it.
    return Number(process.exitCode ?? 0);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander already printed help/version or the usage error.
      return error.exitCode;
    }
    const message = error instanceof Error ? error.message : String(error);
    ctx.stderr.write(`precis: error: ${message}\n`);
    if (ctx.env.PRECIS_DEBUG && error instanceof Error && error.stack) ctx.stderr.write(`${error.stack}\n`);
    return 1;
  }
}
