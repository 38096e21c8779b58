import { resolve } from 'node:path';
import { findRun } from '@precis/engine';
import { Command } from 'commander';
import { type CliContext, withDataSource } from '../context.js';
import { exportRun } from '../portable/export-run.js';
import { describeCounts } from '../portable/portable-format.js';

// `precis export <run> --out <file>`: the run as one portable file for `precis import` elsewhere.
export function exportCommand(ctx: CliContext, version: string): Command {
  return new Command('export')
    .description(
      'write a run to one file (JSON lines, gzip): its spec, tasks, summaries, verdicts, metric values, ledger calls and datasets, for `precis import` into another database',
    )
    .argument('<run>', 'run id (or its first characters)')
    .requiredOption('--out <file>', 'the file to write (e.g. run.jsonl.gz)')
    .action(async (ref: string, opts: { out: string }, command: Command) => {
      await withDataSource(ctx, command, async (db) => {
        const run = await findRun(db, ref);
        const file = resolve(ctx.cwd, opts.out);
        const done = await exportRun(db, run, file, version);
        for (const name of done.missingDatasets)
          ctx.stderr.write(
            `precis: warning: dataset "${name}" of the run is no longer in this database; the file holds none of its documents\n`,
          );
        ctx.stdout.write(
          `exported run ${run.id} (${run.name}) to ${opts.out}: ${describeCounts(done.rows)}; ${formatBytes(done.bytes)}\n`,
        );
      });
    });
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
