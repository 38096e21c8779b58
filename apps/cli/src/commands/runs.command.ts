import type { Run } from '@precis/contracts';
import {
  cancelRun,
  deleteRun,
  describeRunBatches,
  describeUsage,
  findRun,
  hasReportBlocks,
  isOpenRunStatus,
  listRuns,
  loadFullRunReport,
  type RunBatches,
  renderRunReport,
  reportSections,
  runBatches,
  runBlockedBy,
  runListFigures,
  runNotesJson,
  stageCounts,
  usageSoFar,
} from '@precis/engine';
import { loadedFamilies } from '@precis/families';
import { Command } from 'commander';
import { type CliContext, databaseNeeded, type GlobalOptions, withDataSource } from '../context.js';
import { printJson } from '../output.js';
import { cachedFailuresHint, cachedFailuresLine } from '../runtime/cached-failures.js';
import { remoteAccess } from '../runtime/remote-access.js';
import { isFinished, RemoteRuns, remoteRunStatus } from '../runtime/remote-runs.js';
import { alphaOption } from './alpha-option.js';
import { localRunRow, printRunList, remoteRunRow } from './runs-list.js';
import { showLocalTrace, showRemoteTrace } from './runs-trace.js';

export function runsCommand(ctx: CliContext): Command {
  const runs = new Command('runs').description('list and inspect benchmark runs');

  lsCommand(ctx, runs);
  showCommand(ctx, runs);
  cancelCommand(ctx, runs);
  rmCommand(ctx, runs);

  return runs;
}

// `precis runs ls`.
function lsCommand(ctx: CliContext, runs: Command): void {
  runs
    .command('ls')
    .alias('list')
    .description('list runs, newest first')
    .option('--limit <n>', 'at most this many runs', '50')
    .option('--json', 'print as JSON')
    .action(async (opts: { limit: string; json?: boolean }, command: Command) => {
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1)
        throw new Error(`--limit: expected a positive integer, got "${opts.limit}"`);
      const globals = command.optsWithGlobals<GlobalOptions>();
      if (globals.remote) return listRemoteRuns(ctx, globals.remote, limit, opts.json === true);
      await withDataSource(ctx, command, async (db) => {
        const list = await listRuns(db, limit);
        const figures = await runListFigures(db, list);
        const rows = list.map((r) => localRunRow(r, figures.get(r.id)));
        if (rows.length === 0 && !opts.json)
          return ctx.stdout.write('no runs yet; start one with `precis run <spec>`\n');
        printRunList(ctx, rows, opts.json === true);
      });
    });
}

type ShowOptions = { trace?: string; calls?: boolean; json?: boolean; wide?: boolean; alpha?: number };

// `precis runs show`.
function showCommand(ctx: CliContext, runs: Command): void {
  runs
    .command('show')
    .description(
      'show a run: status, tasks per stage, model usage and leaderboard; --trace prints every intermediate summary of a document',
    )
    .argument('<run>', 'run id (or its first characters)')
    .option(
      '--trace <document>',
      'document external id (e.g. the dataset file name for a book, or "product-01")',
    )
    .option(
      '--calls',
      'with --trace: every model call behind the document (prompts, raw replies, tokens, cost)',
    )
    .option('--json', 'print as JSON')
    .option('--wide', 'every leaderboard column at full width (default: what fits 120 columns)')
    .addOption(alphaOption())
    .action(async (ref: string, opts: ShowOptions, command: Command) => {
      if (opts.calls && opts.trace === undefined)
        throw new Error('runs show --calls: give the document too, e.g. --trace <document> --calls');
      const remote = command.optsWithGlobals<GlobalOptions>().remote;
      if (remote && opts.trace !== undefined)
        return showRemoteTrace(ctx, remote, ref, { ...opts, trace: opts.trace });
      if (remote) return showRemoteRun(ctx, remote, ref, opts);
      await withDataSource(ctx, command, async (db) => {
        if (opts.trace !== undefined) return showLocalTrace(ctx, db, ref, { ...opts, trace: opts.trace });
        const run = await findRun(db, ref);
        const [tasks, usage, report, batches] = await Promise.all([
          stageCounts(db, run.id),
          usageSoFar(db, run.id),
          loadFullRunReport(loadedFamilies(), db, run, { alpha: opts.alpha }),
          runBatches(db, run.id),
        ]);
        const blockedBy = await runBlockedBy(db, run.status, tasks);
        if (opts.json)
          return printJson(ctx, {
            ...report.run,
            spec: run.spec,
            tasks,
            usage,
            batches,
            blockedBy: blockedBy || null,
            sections: reportSections(report),
            ...runNotesJson(report),
          });
        const cached = await cachedFailuresLine(db, run, 'precis run <spec> --no-cache');
        const lines = [
          `run:      ${run.id}`,
          `name:     ${run.name}`,
          `status:   ${run.status}${run.error ? ` (${run.error})` : ''}`,
          ...(blockedBy ? [`blocked:  ${blockedBy}`] : []),
          ...hintLine(cached),
          `created:  ${run.createdAt.toISOString()}`,
          `finished: ${run.finishedAt?.toISOString() ?? '-'}`,
          `usage:    ${describeUsage(usage, isOpenRunStatus(run.status))}`,
          ...describeRunBatches(batches),
          'tasks:',
          ...Object.entries(tasks).map(
            ([stage, c]) =>
              `  ${stage.padEnd(10)} ${c.done} done, ${c.failed} failed, ${c.cancelled ? `${c.cancelled} cancelled, ` : ''}${c.open} open of ${c.total}`,
          ),
        ];
        ctx.stdout.write(`${lines.join('\n')}\n\n`);
        // How the models ran is shown even before any leaderboard.
        if (hasReportBlocks(report)) ctx.stdout.write(renderRunReport(report, 'text', { wide: opts.wide }));
      });
    });
}

// `precis runs cancel`.
function cancelCommand(ctx: CliContext, runs: Command): void {
  runs
    .command('cancel')
    .description('cancel an unfinished run: no more tasks are started; it cannot be resumed')
    .argument('<run>', 'run id (or a unique prefix)')
    .option('--reason <text>', 'why (shown with the run)', 'cancelled by the user')
    .action(async (ref: string, opts: { reason: string }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      if (globals.remote) {
        const remote = new RemoteRuns(globals.remote, remoteAccess(ctx.env));
        try {
          const run = await remote.cancelRun(ref, opts.reason);
          ctx.stdout.write(`run ${run.id}: ${remoteRunStatus(run)}\n`);
        } finally {
          remote.close();
        }
        return;
      }
      await withDataSource(ctx, command, async (db) => {
        const run = await cancelRun(db, (await findRun(db, ref)).id, opts.reason);
        ctx.stdout.write(`run ${run.id}: cancelled (${run.error})\n`);
      });
    });
}

// `precis runs rm`.
function rmCommand(ctx: CliContext, runs: Command): void {
  runs
    .command('rm')
    .description(
      'delete a finished, cancelled or interrupted run and its results (cached model responses are kept)',
    )
    .argument('<run>', 'run id (or a unique prefix)')
    .action(async (ref: string, _opts: unknown, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      if (globals.served) throw databaseNeeded(command);
      if (globals.remote)
        throw new Error(
          'runs rm: not available with --remote; cancel the run there, or delete it on the gateway host',
        );
      await withDataSource(ctx, command, async (db) => {
        const run = await findRun(db, ref);
        await deleteRun(db, run.id);
        ctx.stdout.write(`deleted run ${run.id} (${run.name})\n`);
      });
    });
}

// `precis runs ls --remote`: the gateway's runs, page by page up to the limit.
async function listRemoteRuns(ctx: CliContext, address: string, limit: number, json: boolean): Promise<void> {
  const remote = new RemoteRuns(address, remoteAccess(ctx.env));
  try {
    const rows = (await remote.listRuns({ limit })).map(remoteRunRow);
    if (rows.length === 0 && !json) return void ctx.stdout.write(`no runs at the gateway at ${address}\n`);
    printRunList(ctx, rows, json);
  } finally {
    remote.close();
  }
}

// `precis runs show --remote`: the run as the gateway has it, and the leaderboard it renders.
async function showRemoteRun(
  ctx: CliContext,
  address: string,
  ref: string,
  opts: ShowOptions,
): Promise<void> {
  const remote = new RemoteRuns(address, remoteAccess(ctx.env));
  try {
    const run = await remote.getRun(ref);
    const stages = [
      ...new Set(Object.keys(run.taskCounts).flatMap((k) => (k.includes('.') ? [k.split('.')[0]!] : []))),
    ];
    const count = (stage: string, state: string) => run.taskCounts[`${stage}.${state}`] ?? 0;
    if (opts.json) {
      const report = await remote.report(run.id, 'json', false, opts.alpha);
      const tasks = Object.fromEntries(
        stages.map((st) => [
          st,
          {
            total: count(st, 'total'),
            done: count(st, 'done'),
            failed: count(st, 'failed'),
            open: count(st, 'open'),
          },
        ]),
      );
      return printJson(ctx, {
        ...JSON.parse(report.text),
        tasks,
        costUsd: run.costUsd,
        reservedUsd: run.reservedUsd,
        usage: run.usage ? { ...run.usage, costUsd: run.costUsd, reservedUsd: run.reservedUsd } : null,
        batches: run.batches ? remoteBatches(run.batches) : null,
        blockedBy: run.blockedBy || null,
      });
    }
    const lines = [
      `run:      ${run.id}`,
      `name:     ${run.name}`,
      `status:   ${remoteRunStatus(run)}${run.error ? ` (${run.error})` : ''}`,
      ...(run.blockedBy ? [`blocked:  ${run.blockedBy}`] : []),
      ...hintLine(cachedFailuresHint(run.cachedFailedTasks, 'precis run <spec> --no-cache')),
      `created:  ${run.createTime?.toISOString() ?? '-'}`,
      `finished: ${run.finishTime?.toISOString() ?? '-'}`,
      // A gateway from before usage was in the run says only its cost.
      run.usage
        ? `usage:    ${describeUsage({ ...run.usage, costUsd: run.costUsd, reservedUsd: run.reservedUsd }, !isFinished(run))}`
        : `cost:     $${run.costUsd.toFixed(4)}`,
      ...(run.batches ? describeRunBatches(remoteBatches(run.batches)) : []),
      'tasks:',
      ...stages.map(
        (st) =>
          `  ${st.padEnd(10)} ${count(st, 'done')} done, ${count(st, 'failed')} failed, ${count(st, 'open')} open of ${count(st, 'total')}`,
      ),
    ];
    ctx.stdout.write(`${lines.join('\n')}\n\n`);
    const report = await remote.report(run.id, 'text', opts.wide === true, opts.alpha);
    if (report.hasResults) ctx.stdout.write(report.text);
  } finally {
    remote.close();
  }
}

const hintLine = (hint: string | null): string[] => (hint ? [`hint:     ${hint}`] : []);

// The run's batches as GetRun gives them, in the engine's shape (no provider id: null).
function remoteBatches(b: NonNullable<Run['batches']>): RunBatches {
  return { ...b, batches: b.batches.map((x) => ({ ...x, providerBatchId: x.providerBatchId || null })) };
}
