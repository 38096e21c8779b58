import { renderRunReportAs } from '@precis/api/report-html';
import { findRun, hasResults, loadFullRunReport, type ReportFormat } from '@precis/engine';
import { loadedFamilies } from '@precis/families';
import { Command, Option } from 'commander';
import { type CliContext, type GlobalOptions, withDataSource } from '../context.js';
import { writeOutput } from '../output.js';
import { remoteAccess } from '../runtime/remote-access.js';
import { RemoteRuns, remoteRunStatus } from '../runtime/remote-runs.js';
import { alphaOption } from './alpha-option.js';

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
    .addOption(alphaOption())
    .action(
      async (
        ref: string,
        opts: { format: ReportFormat; out?: string; wide?: boolean; alpha?: number },
        command: Command,
      ) => {
        const remote = command.optsWithGlobals<GlobalOptions>().remote;
        if (remote) return remoteReport(ctx, remote, ref, opts);
        await withDataSource(ctx, command, async (db) => {
          const run = await findRun(db, ref);
          const report = await loadFullRunReport(loadedFamilies(), db, run, { alpha: opts.alpha });
          if (!hasResults(report)) {
            throw new Error(
              `run ${run.id} has no leaderboard yet (status ${run.status}${run.error ? `: ${run.error}` : ''})`,
            );
          }
          writeOutput(ctx, renderRunReportAs(report, opts.format, { wide: opts.wide }), opts.out);
        });
      },
    );
}

// `precis report --remote`: the gateway renders the report; the same text as a local report.
async function remoteReport(
  ctx: CliContext,
  address: string,
  ref: string,
  opts: { format: ReportFormat; out?: string; wide?: boolean; alpha?: number },
): Promise<void> {
  const remote = new RemoteRuns(address, remoteAccess(ctx.env));
  try {
    const run = await remote.getRun(ref);
    const report = await remote.report(run.id, opts.format, opts.wide === true, opts.alpha);
    if (!report.hasResults)
      throw new Error(
        `run ${run.id} has no leaderboard yet (status ${remoteRunStatus(run)}${run.error ? `: ${run.error}` : ''})`,
      );
    writeOutput(ctx, report.text, opts.out);
  } finally {
    remote.close();
  }
}
