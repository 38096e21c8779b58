import { writeFileSync } from 'node:fs';
import { findRun, hasResults, loadFullRunReport, type ReportFormat, renderRunReport } from '@precis/engine';
import { Command, Option } from 'commander';
import { type CliContext, withDataSource } from '../context.js';
import { cliFamilies } from '../runtime/families.js';

export function reportCommand(ctx: CliContext): Command {
  return new Command('report')
    .description(
      "render a run's leaderboard (scores with 95% CI, lengths, novel/repeated trigrams, tokens and cost, error types)",
    )
    .argument('<run>', 'run id (or its first characters)')
    .addOption(
      new Option('--format <format>', 'output format')
        .choices(['md', 'csv', 'json', 'html', 'text'])
        .default('md'),
    )
    .option('--out <file>', 'write to this file instead of stdout')
    .option('--wide', 'text: every column at full width (default: what fits 120 columns)')
    .action(
      async (ref: string, opts: { format: ReportFormat; out?: string; wide?: boolean }, command: Command) => {
        await withDataSource(ctx, command, async (db) => {
          const run = await findRun(db, ref);
          const report = await loadFullRunReport(cliFamilies(), db, run);
          if (!hasResults(report)) {
            throw new Error(
              `run ${run.id} has no leaderboard yet (status ${run.status}${run.error ? `: ${run.error}` : ''})`,
            );
          }
          const text = renderRunReport(report, opts.format, { wide: opts.wide });
          if (opts.out) {
            writeFileSync(opts.out, text);
            ctx.stderr.write(`wrote ${opts.out}\n`);
          } else {
            ctx.stdout.write(text);
          }
        });
      },
    );
}
