import { dirname, resolve } from 'node:path';
import { status } from '@grpc/grpc-js';
import type { Bus } from '@precis/bus';
import {
  type BatchProviders,
  type BenchmarkSpec,
  createRun,
  createRunContext,
  executeRun,
  exitCodeOf,
  findRun,
  hasResults,
  type LoadedSpec,
  loadFullRunReport,
  loadSpecFile,
  type RunContext,
  type RunLogger,
  renderRunReport,
  SpecError,
  setRunStatus,
  specModels,
  specModelUses,
} from '@precis/engine';
import { loadedFamilies } from '@precis/families';
import { prepareImport } from '@precis/ingest';
import {
  createTypeOrmLlmStore,
  describeCapabilityProblems,
  LlmClient,
  LlmError,
  type ModelRegistry,
  modelUseProblems,
  PreflightError,
  parkCall,
  preflightModels,
} from '@precis/llm';
import { Command } from 'commander';
import { type CliContext, type GlobalOptions, withRuntime } from '../context.js';
import { printJson } from '../output.js';
import { cachedFailuresHint, cachedFailuresLine } from '../runtime/cached-failures.js';
import { resolveModelRegistry } from '../runtime/model-registry.js';
import { GatewayCallError, type RemoteAccess, remoteAccess } from '../runtime/remote-access.js';
import { RemoteRuns, runRemote } from '../runtime/remote-runs.js';
import { describeOutcome, runProgressView } from '../runtime/run-progress.js';
import { localFilePolicy, type PrecisRuntime } from '../runtime/runtime.js';
import { alphaOption } from './alpha-option.js';

interface RunOptions {
  preflight?: boolean;
  systems?: string;
  fresh?: boolean;
  cache?: boolean;
  concurrency?: string;
  json?: boolean;
  wide?: boolean;
  alpha?: number;
  models?: string;
}

// The command that selects the same run again: the spec hash covers the systems and the cache flag.
export function resumeCommand(specPath: string, opts: RunOptions): string {
  const quote = (s: string) => (/^[\w./:@,-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);
  const parts = ['precis', 'run', quote(specPath)];
  if (opts.systems) parts.push('--systems', quote(opts.systems));
  if (opts.models) parts.push('--models', quote(opts.models));
  if (opts.cache === false) parts.push('--no-cache');
  return parts.join(' ');
}

// Every model the run needs resolves, has its key variable set and (unless --no-preflight) answers
// one cheap request: otherwise the one message that says why, before any task is created.
async function preflight(
  chat: LlmClient,
  spec: BenchmarkSpec,
  runId: string,
  request: boolean,
): Promise<string | null> {
  const models = [...new Set(specModels(spec).map((m) => m.model))];
  if (models.length === 0) return null;
  try {
    await preflightModels(chat, models, { runId, request });
    return null;
  } catch (err) {
    // Transient failures were retried like any call first.
    if (err instanceof LlmError || err instanceof PreflightError) return err.message;
    throw err;
  }
}

// What the spec asks of each model (a judge's temperature, logprobs) that the registry says it
// cannot do: refused before anything is stored or sent, even with --no-preflight.
function capabilityRefusal(registry: ModelRegistry | undefined, spec: BenchmarkSpec): string | null {
  if (!registry) return null;
  const problems = modelUseProblems(registry, specModelUses(loadedFamilies(), spec));
  return problems.length ? describeCapabilityProblems(problems, '(no run was created or resumed)') : null;
}

function stderrLogger(stream: NodeJS.WriteStream): RunLogger {
  const write = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    stream.write(`${level}: ${msg}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`);
  };
  return { info() {}, warn: write('warning'), error: write('error') };
}

export function runCommand(ctx: CliContext): Command {
  return new Command('run')
    .description(
      'run a benchmark spec (YAML or JSON) to completion and print its leaderboard; re-running an unfinished spec resumes it',
    )
    .argument('<spec>', 'benchmark spec file, e.g. examples/books.yaml')
    .option('--systems <names>', 'only these systems of the spec (comma-separated)')
    .option('--fresh', 'start a new run even when an unfinished run of the same spec exists')
    .option(
      '--models <file>',
      "the model registry, instead of the spec's models: file and $PRECIS_MODELS (e.g. examples/fake/models.yaml)",
    )
    .option('--no-cache', 'do not use cached model responses for this run')
    .option('--concurrency <n>', "tasks per stage at once (default: the spec's limits.concurrency)")
    .option('--json', 'print the final report as JSON')
    .option('--wide', 'every leaderboard column at full width (default: what fits 120 columns)')
    .addOption(alphaOption())
    .option(
      '--no-preflight',
      'skip the one cheap request per model endpoint made before any task (what the spec asks of each model, e.g. a judge temperature or logprobs, is still checked)',
    )
    .action(async (specPath: string, opts: RunOptions, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      if (opts.models && globals.served)
        throw new Error(
          `--models: \`precis serve\` (process ${globals.served.pid}) runs this home's runs with its own registry: restart it as \`PRECIS_MODELS=${opts.models} precis serve\`, then run without --models`,
        );
      if (opts.models && globals.remote)
        throw new Error(
          '--models applies to embedded runs: a gateway uses its own registry (PRECIS_MODELS where it runs)',
        );
      const { loaded, concurrency } = loadRunSpec(specPath, opts, ctx.cwd);
      if (globals.served && loaded.spec.models && specModels(loaded.spec).length > 0)
        ctx.stderr.write(`precis: ${ignoredRegistryNote(loaded.spec.models)}\n`);
      if (globals.remote) await submitRemote(ctx, globals.remote, loaded, opts, specPath);
      else
        await withRuntime(ctx, command, (runtime) =>
          runEmbedded(ctx, runtime, loaded, opts, specPath, concurrency),
        );
    });
}

// `precis serve` runs models from its own registry, never from a file a spec names.
function ignoredRegistryNote(file: string): string {
  return `the spec's models: file (${file}) is not read through \`precis serve\`, which runs models from its own registry: to use this one, restart it as \`PRECIS_MODELS=${file} precis serve\``;
}

// The spec as this invocation runs it: --models, --systems, --no-cache and --concurrency applied.
function loadRunSpec(
  specPath: string,
  opts: RunOptions,
  cwd: string,
): { loaded: LoadedSpec; concurrency: number } {
  const loaded = loadSpecFile(loadedFamilies(), specPath);
  // Part of the spec the run is identified by: a registry of other endpoints is another run.
  if (opts.models) loaded.spec.models = resolve(cwd, opts.models);
  if (opts.systems) {
    const wanted = opts.systems
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = wanted.filter((w) => !loaded.spec.systems.some((s) => s.name === w));
    if (unknown.length) {
      throw new SpecError(loaded.file, [
        `--systems: no system named ${unknown.join(', ')} (the spec has ${loaded.spec.systems.map((s) => s.name).join(', ')})`,
      ]);
    }
    loaded.spec.systems = loaded.spec.systems.filter((s) => wanted.includes(s.name));
    // A metric scoped to systems (`systems: [...]`) keeps the selected ones, or goes with them.
    loaded.spec.metrics = loaded.spec.metrics.flatMap((m) => {
      const scoped = m.systems as string[] | undefined;
      if (!Array.isArray(scoped)) return [m];
      const kept = scoped.filter((name) => wanted.includes(name));
      return kept.length ? [{ ...m, systems: kept }] : [];
    });
  }
  if (opts.cache === false) loaded.spec.cache = false;
  const concurrency =
    opts.concurrency === undefined ? loaded.spec.limits.concurrency : Number(opts.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`--concurrency: expected a positive integer, got "${opts.concurrency}"`);
  return { loaded, concurrency };
}

// The cluster runs it: submit over gRPC and follow its progress until it finishes.
async function submitRemote(
  ctx: CliContext,
  remote: string,
  loaded: LoadedSpec,
  opts: RunOptions,
  specPath: string,
): Promise<void> {
  const access = remoteAccess(ctx.env);
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once('SIGINT', onSignal);
  try {
    const { exitCode, run } = await runRemote(ctx, remote, access, loaded.spec, {
      fresh: opts.fresh,
      specDir: dirname(loaded.file),
      preflight: opts.preflight,
      signal: abort.signal,
    });
    const cached = cachedFailuresHint(
      run.cachedFailedTasks,
      resumeCommand(specPath, { ...opts, cache: false }),
    );
    if (cached) ctx.stderr.write(`hint: ${cached}\n`);
    if (opts.json) printJson(ctx, run);
    else if (exitCode !== 130) await printRemoteReport(ctx, remote, access, run.id, opts);
    process.exitCode = exitCode;
  } catch (err) {
    // The gateway's preflight refused a model: one line and the exit code of a run that failed
    // before any task, as embedded (the gateway created no run).
    if (!(err instanceof GatewayCallError && err.code === status.FAILED_PRECONDITION)) throw err;
    ctx.stderr.write(`precis: error: ${err.message}\n`);
    process.exitCode = exitCodeOf('failed');
  } finally {
    process.removeListener('SIGINT', onSignal);
  }
}

// The leaderboard the gateway renders, printed as an embedded run prints its own.
async function printRemoteReport(
  ctx: CliContext,
  remote: string,
  access: RemoteAccess,
  runId: string,
  opts: RunOptions,
): Promise<void> {
  const runs = new RemoteRuns(remote, access);
  try {
    const report = await runs.report(runId, 'text', opts.wide === true, opts.alpha);
    if (report.hasResults) ctx.stdout.write(report.text);
  } finally {
    runs.close();
  }
}

// Creates (or resumes) the run in the embedded runtime and checks its model endpoints; null when
// refused: a model asked for what it cannot do (no run then), or a failed preflight (the run is
// then failed before any task).
async function openEmbeddedRun(
  ctx: CliContext,
  runtime: PrecisRuntime,
  loaded: LoadedSpec,
  opts: RunOptions,
) {
  if (!runtime.dataSource || !runtime.bus) throw new Error('the embedded runtime has no database or bus');
  const db = runtime.dataSource;
  const registry = resolveModelRegistry(loaded.spec.models, ctx.env, ctx.cwd);
  const incapable = capabilityRefusal(registry, loaded.spec);
  if (incapable) {
    ctx.stderr.write(`precis: error: ${incapable}\n`);
    process.exitCode = 1;
    return null;
  }
  const chat = registry
    ? new LlmClient({
        registry,
        store: createTypeOrmLlmStore(db),
        cacheEnabled: loaded.spec.cache,
        parkCall: (call) => parkCall(db, call),
      })
    : undefined;
  const runCtx = createRunContext({
    db,
    bus: runtime.bus,
    families: loadedFamilies(),
    chat,
    registry,
    logger: stderrLogger(ctx.stderr),
    prepareImport,
  });
  const { run, resumed } = await createRun(runCtx, loaded, {
    fresh: opts.fresh,
    fileAccess: localFilePolicy(ctx.env),
  });
  ctx.stderr.write(`${resumed ? 'resuming' : 'started'} run ${run.id} (${run.name}) — ${runtime.target}\n`);
  if (chat) {
    const refused = await preflight(chat, loaded.spec, run.id, opts.preflight !== false);
    if (refused) {
      await setRunStatus(db, run.id, 'failed', refused);
      ctx.stderr.write(`precis: error: ${refused} (run ${run.id} failed before any task)\n`);
      process.exitCode = exitCodeOf('failed');
      return null;
    }
  }
  return { runCtx, run, bus: runtime.bus, chat };
}

// Runs to the end with a progress view on stderr; Ctrl-C stops after the tasks in flight.
async function executeWithProgress(
  ctx: CliContext,
  runCtx: RunContext,
  bus: Bus,
  runId: string,
  concurrency: number,
  batchProviders?: BatchProviders,
) {
  const view = runProgressView(ctx.stderr, runCtx.db, runId);
  let refreshing = false;
  const refresh = () => {
    if (refreshing) return;
    refreshing = true;
    void view.refresh().finally(() => {
      refreshing = false;
    });
  };
  const timer = setInterval(refresh, 1000);
  const abort = new AbortController();
  const onSignal = () => {
    ctx.stderr.write('\nstopping: finishing the tasks in flight (Ctrl-C again to force)...\n');
    abort.abort();
    process.once('SIGINT', () => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  try {
    return await executeRun(runCtx, bus, runId, { concurrency, signal: abort.signal, batchProviders });
  } finally {
    clearInterval(timer);
    process.removeListener('SIGINT', onSignal);
    await view.refresh().catch(() => {});
    view.stop();
  }
}

async function runEmbedded(
  ctx: CliContext,
  runtime: PrecisRuntime,
  loaded: LoadedSpec,
  opts: RunOptions,
  specPath: string,
  concurrency: number,
): Promise<void> {
  const opened = await openEmbeddedRun(ctx, runtime, loaded, opts);
  if (!opened) return;
  const { runCtx, run, bus, chat } = opened;
  const db = runCtx.db;
  const outcome = await executeWithProgress(ctx, runCtx, bus, run.id, concurrency, chat);
  if (outcome.interrupted) {
    await setRunStatus(db, run.id, 'interrupted', 'interrupted by the user (SIGINT)');
    ctx.stderr.write(
      `interrupted: run ${run.id} keeps its finished tasks; \`${resumeCommand(specPath, opts)}\` resumes it\n`,
    );
    process.exitCode = exitCodeOf('interrupted');
    return;
  }
  ctx.stderr.write(`${describeOutcome(outcome.progress)}\n`);
  const noCache = resumeCommand(specPath, { ...opts, cache: false });
  const cached = await cachedFailuresLine(db, { id: run.id, status: outcome.progress.status }, noCache);
  if (cached) ctx.stderr.write(`hint: ${cached}\n`);
  const report = await loadFullRunReport(loadedFamilies(), db, await findRun(db, run.id), {
    alpha: opts.alpha,
  });
  if (opts.json) ctx.stdout.write(renderRunReport(report, 'json'));
  else if (hasResults(report)) ctx.stdout.write(renderRunReport(report, 'text', { wide: opts.wide }));
  process.exitCode = exitCodeOf(outcome.progress.status);
}
