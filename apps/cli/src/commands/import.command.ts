import { resolve } from 'node:path';
import { Command } from 'commander';
import { type CliContext, databaseNeeded, withRuntime } from '../context.js';
import { importRun } from '../portable/import-run.js';
import { describeCounts } from '../portable/portable-format.js';

// `precis import <file>`: a run written by `precis export`, into this database.
export function importCommand(ctx: CliContext): Command {
  return new Command('import')
    .description(
      'load a run written by `precis export` into this database (embedded, or --database-url): all or nothing; importing it again changes nothing',
    )
    .argument('<file>', 'the file `precis export` wrote')
    .action(async (path: string, _opts: unknown, command: Command) => {
      await withRuntime(ctx, command, async (runtime) => {
        if (!runtime.dataSource) throw databaseNeeded(command);
        const done = await importRun(runtime.dataSource, path, runtime.target, resolve(ctx.cwd, path));
        for (const name of done.sharedDatasets)
          ctx.stderr.write(
            `precis: dataset "${name}" was already here from the same file: the run refers to this copy\n`,
          );
        const changed = describeCounts(done.changed);
        ctx.stdout.write(
          changed
            ? `imported run ${done.runId} (${done.name}) into ${runtime.target}: ${changed}\n`
            : `run ${done.runId} (${done.name}) is already in ${runtime.target} as the file has it: nothing changed\n`,
        );
      });
    });
}
