import { renderHtml } from '@precis/api/report-html';
import {
  agreementFromRatingsFile,
  type CorrelationReport,
  compareSampleScoreFiles,
  type HumanLeaderboard,
  leaderboardBlocks,
  leaderboardTitle,
  type MetaQuery,
  type MetaResult,
  renderLeaderboard,
  SUMMEVAL_OP_HUMAN_SYSTEM,
} from '@precis/meta';
import { Command } from 'commander';
import { parseBootstrap, parseFormat, parseGroups, parseLevel, parseMethod } from './meta-options.js';
import { agreementText, compareText, correlationText } from './meta-output.js';

export interface MetaCommandDeps {
  stdout: NodeJS.WritableStream;
  // Runs a query on the database the global options select (embedded PGlite or PostgreSQL), or
  // on a gateway's with --remote. Only correlate and leaderboard need one.
  metaQuery(command: Command, q: MetaQuery): Promise<MetaResult>;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

function write(deps: MetaCommandDeps, text: string): void {
  deps.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

// `precis meta ...`: how far metrics and judges agree with human ratings.
export function registerMetaCommands(program: Command, deps: MetaCommandDeps): Command {
  const meta = program
    .command('meta')
    .description(
      'meta-evaluation: agreement of metrics and LLM judges with human ratings, and between raters',
    );

  correlateCommand(meta, deps);
  agreementCommand(meta, deps);
  compareCommand(meta, deps);
  leaderboardCommand(meta, deps);

  return meta;
}

// `precis meta correlate`.
function correlateCommand(meta: Command, deps: MetaCommandDeps): void {
  meta
    .command('correlate')
    .description(
      'correlate a metric or a judge run with the human ratings of a SummEval-OP dataset, per dimension',
    )
    .requiredOption('--dataset <name>', 'an imported summeval-op dataset')
    .requiredOption('--metric <metric>', 'rouge-1, rouge-2, rouge-l or judge:<run id or name>')
    .option(
      '--reference <system>',
      `system whose summary is the reference of ROUGE (its own summary stays in; default ${SUMMEVAL_OP_HUMAN_SYSTEM})`,
    )
    .option('--level <level>', 'summary (per product, averaged) or system', 'summary')
    .option(
      '--ci [resamples]',
      'add 95% bootstrap confidence intervals (products resampled; default 1000 resamples)',
    )
    .option('--seed <n>', 'bootstrap seed', '1')
    .option(
      '--no-stem',
      'ROUGE without Porter stemming (default: stemming on, as rouge-score use_stemmer=True)',
    )
    .option('--json', 'print as JSON')
    .action(
      async (
        opts: {
          dataset: string;
          metric: string;
          reference?: string;
          level: string;
          stem: boolean;
          ci?: boolean | string;
          seed: string;
          json?: boolean;
        },
        command: Command,
      ) => {
        const bootstrap = parseBootstrap(opts.ci, opts.seed);
        const report = (await deps.metaQuery(command, {
          command: 'correlate',
          dataset: opts.dataset,
          metric: opts.metric,
          reference: opts.reference,
          level: parseLevel(opts.level),
          stem: opts.stem,
          ...(bootstrap ? { bootstrap } : {}),
        })) as CorrelationReport;
        write(deps, opts.json ? JSON.stringify(report, null, 2) : correlationText(report));
      },
    );
}

// `precis meta agreement`.
function agreementCommand(meta: Command, deps: MetaCommandDeps): void {
  meta
    .command('agreement')
    .description(
      "inter-rater agreement of a per-rater ratings file (Krippendorff's alpha, RMSE, correlations)",
    )
    .requiredOption(
      '--ratings <file>',
      'JSONL, one product per line: {"summaries": [...], "fl": [[r1, r2, ...], ...], ...}',
    )
    .option('--json', 'print as JSON')
    .action(async (opts: { ratings: string; json?: boolean }) => {
      const report = await agreementFromRatingsFile(opts.ratings);
      write(deps, opts.json ? JSON.stringify(report, null, 2) : agreementText(report));
    });
}

// `precis meta compare`.
function compareCommand(meta: Command, deps: MetaCommandDeps): void {
  meta
    .command('compare')
    .description(
      "test whether two judges' per-group correlations with humans differ (Mann-Whitney U, Welch t)",
    )
    .requiredOption(
      '--a <file>',
      'per-sample judge scores, JSONL {product, system, dimension, samples, human}',
    )
    .requiredOption('--b <file>', 'the other judge, same format')
    .option('--groups <n>', "split each summary's samples into n groups", '10')
    .option('--method <method>', 'correlation per group: spearman, kendall or pearson', 'spearman')
    .option('--json', 'print as JSON')
    .action(async (opts: { a: string; b: string; groups: string; method: string; json?: boolean }) => {
      const report = await compareSampleScoreFiles(
        opts.a,
        opts.b,
        parseGroups(opts.groups),
        parseMethod(opts.method),
      );
      write(deps, opts.json ? JSON.stringify(report, null, 2) : compareText(report));
    });
}

// `precis meta leaderboard`.
function leaderboardCommand(meta: Command, deps: MetaCommandDeps): void {
  meta
    .command('leaderboard')
    .description(
      'rank the systems of a SummEval-OP dataset by human rating, with judges or metrics side by side',
    )
    .requiredOption('--dataset <name>', 'an imported summeval-op dataset')
    .option(
      '--judge <metric>',
      'add a column group: judge:<run> or rouge-1|rouge-2|rouge-l (repeatable)',
      collect,
    )
    .option(
      '--reference <system>',
      `reference system for ROUGE columns (default ${SUMMEVAL_OP_HUMAN_SYSTEM})`,
    )
    .option('--format <format>', 'text, md, csv, json or html', 'text')
    .action(
      async (
        opts: { dataset: string; judge?: string[]; reference?: string; format: string },
        command: Command,
      ) => {
        const format = parseFormat(opts.format);
        const board = (await deps.metaQuery(command, {
          command: 'leaderboard',
          dataset: opts.dataset,
          judges: opts.judge ?? [],
          reference: opts.reference,
        })) as HumanLeaderboard;
        write(
          deps,
          format === 'html'
            ? renderHtml(leaderboardTitle(board), leaderboardBlocks(board))
            : renderLeaderboard(board, format),
        );
      },
    );
}
