import {
  type BenchmarkSpec,
  findRun,
  hasResults,
  listRuns,
  loadFullRunReport,
  loadTraces,
  renderRunReport,
  renderTrace,
  stageCounts,
  usageSoFar,
} from '@precis/runs';
import { Command } from 'commander';
import { type CliContext, withDataSource } from '../context.js';
import { formatTable, printJson } from '../output.js';

export function runsCommand(ctx: CliContext): Command {
  const runs = new Command('runs').description('list and inspect benchmark runs');

  runs
    .command('ls')
    .alias('list')
    .description('list runs, newest first')
    .option('--limit <n>', 'at most this many runs', '50')
    .option('--json', 'print as JSON')
    .action(async (opts: { limit: string; json?: boolean }, command: Command) => {
      await withDataSource(ctx, command, async (db) => {
        const list = await listRuns(db, Number(opts.limit));
        const rows = await Promise.all(
          list.map(async (r) => ({
            id: r.id,
            name: r.name,
            status: r.status,
            createdAt: r.createdAt.toISOString(),
            finishedAt: r.finishedAt?.toISOString() ?? null,
            systems: (r.spec as unknown as BenchmarkSpec).systems.map((s) => s.name),
            tasks: await stageCounts(db, r.id),
            error: r.error,
          })),
        );
        if (opts.json) return printJson(ctx, rows);
        if (rows.length === 0) return ctx.stdout.write('no runs yet; start one with `precis run <spec>`\n');
        ctx.stdout.write(
          `${formatTable(
            ['ID', 'NAME', 'STATUS', 'CREATED', 'SYSTEMS', 'TASKS DONE'],
            rows.map((r) => {
              const t = Object.values(r.tasks);
              const done = t.reduce((a, c) => a + c.done + c.failed, 0);
              const total = t.reduce((a, c) => a + c.total, 0);
              return [
                r.id.slice(0, 8),
                r.name,
                r.status,
                r.createdAt.replace(/\.\d+Z$/, 'Z'),
                r.systems.join(','),
                `${done}/${total}`,
              ];
            }),
          )}\n`,
        );
      });
    });

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
    .option('--json', 'print as JSON')
    .action(async (ref: string, opts: { trace?: string; json?: boolean }, command: Command) => {
      await withDataSource(ctx, command, async (db) => {
        const run = await findRun(db, ref);
        if (opts.trace !== undefined) {
          const traces = await loadTraces(db, run, opts.trace);
          if (opts.json) return printJson(ctx, traces);
          ctx.stdout.write(`document ${traces.document.externalId} (${traces.document.id})\n\n`);
          for (const t of traces.systems) ctx.stdout.write(`${renderTrace(t.system, t.strategy, t.steps)}\n`);
          return;
        }
        const [tasks, usage, report] = await Promise.all([
          stageCounts(db, run.id),
          usageSoFar(db, run.id),
          loadFullRunReport(db, run),
        ]);
        if (opts.json)
          return printJson(ctx, {
            ...report.booookscore.run,
            spec: run.spec,
            tasks,
            usage,
            leaderboard: report.booookscore.leaderboard,
            dimensions: report.dimensions.boards,
          });
        const lines = [
          `run:      ${run.id}`,
          `name:     ${run.name}`,
          `status:   ${run.status}${run.error ? ` (${run.error})` : ''}`,
          `created:  ${run.createdAt.toISOString()}`,
          `finished: ${run.finishedAt?.toISOString() ?? '-'}`,
          `usage:    ${usage.calls} model calls (${usage.cacheHits} from cache), ${usage.tokensIn} tokens in, ${usage.tokensOut} out, $${usage.costUsd.toFixed(4)}`,
          'tasks:',
          ...Object.entries(tasks).map(
            ([stage, c]) =>
              `  ${stage.padEnd(10)} ${c.done} done, ${c.failed} failed, ${c.running} running, ${c.queued} queued of ${c.total}`,
          ),
        ];
        ctx.stdout.write(`${lines.join('\n')}\n\n`);
        if (hasResults(report)) ctx.stdout.write(renderRunReport(report, 'text'));
      });
    });

  return runs;
}
