import { renderBlocksAs } from '@precis/api/report-html';
import { crossRunBlocks, crossRunLeaderboard, type ReportFormat } from '@precis/engine';
import { Command, Option } from 'commander';
import { type CliContext, type GlobalOptions, withDataSource } from '../context.js';
import { writeOutput } from '../output.js';
import { remoteAccess } from '../runtime/remote-access.js';
import { RemoteRuns } from '../runtime/remote-runs.js';
import { parseAlpha } from './alpha-option.js';

const positiveInt = (flag: string, raw: string, min = 1) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${flag}: expected an integer of at least ${min}, got "${raw}"`);
  return n;
};

// `precis leaderboard --runs a,b,...`: the systems of several runs ranked on one metric.
export function leaderboardCommand(ctx: CliContext): Command {
  return new Command('leaderboard')
    .description(
      'rank the systems of several runs on a metric over the documents they share (paired bootstrap, Holm-corrected; ties share a rank)',
    )
    .requiredOption('--runs <ids>', 'run ids or their first characters, comma-separated')
    .option('--metric <name>', 'the per-document metric (default: the one every run has)')
    .option('--resamples <n>', 'bootstrap resamples per comparison', '1000')
    .option('--alpha <p>', 'significance level after Holm correction', '0.05')
    .addOption(
      new Option('--format <format>', 'output format')
        .choices(['text', 'md', 'csv', 'json', 'html'])
        .default('text'),
    )
    .option('--out <file>', 'write to this file instead of stdout')
    .option('--wide', 'text: every column at full width')
    .action(
      async (
        opts: {
          runs: string;
          metric?: string;
          resamples: string;
          alpha: string;
          format: ReportFormat;
          out?: string;
          wide?: boolean;
        },
        command: Command,
      ) => {
        const alpha = parseAlpha(opts.alpha);
        const resamples = positiveInt('--resamples', opts.resamples, 100);
        const refs = opts.runs
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean);
        const remote = command.optsWithGlobals<GlobalOptions>().remote;
        if (remote) {
          const client = new RemoteRuns(remote, remoteAccess(ctx.env));
          try {
            const text = await client.leaderboard({
              runIds: refs,
              metric: opts.metric ?? '',
              alpha,
              resamples,
              format: opts.format,
              wide: opts.wide === true,
            });
            return writeOutput(ctx, text, opts.out);
          } finally {
            client.close();
          }
        }
        await withDataSource(ctx, command, async (db) => {
          const board = await crossRunLeaderboard(db, refs, {
            ...(opts.metric ? { metric: opts.metric } : {}),
            resamples,
            alpha,
          });
          const text =
            opts.format === 'json'
              ? `${JSON.stringify(board, null, 2)}\n`
              : renderBlocksAs(`Leaderboard over ${refs.length} run(s)`, crossRunBlocks(board), opts.format, {
                  wide: opts.wide,
                });
          writeOutput(ctx, text, opts.out);
        });
      },
    );
}
