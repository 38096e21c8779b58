import type { ServiceError } from '@grpc/grpc-js';
import {
  type CreateRunRequest,
  type GetLeaderboardRequest,
  type Run,
  RunServiceClient,
  RunStatus,
} from '@precis/contracts';
import type { RunEntity } from '@precis/db';
import { type BenchmarkSpec, costText, exitCodeOf } from '@precis/engine';
import { callMetadata, GatewayCallError, grpcCall, type RemoteAccess } from './remote-access.js';
import { endedEarly } from './run-progress.js';
import { sleepUnlessAborted } from './sleep-unless-aborted.js';

// gRPC metadata key the gateway resolves relative spec paths against (see the gateway's
// CreateRunUseCase); the CLI sends absolute paths anyway, this covers hand-written JSON.
const SPEC_DIR_METADATA = 'precis-spec-dir';
const DEADLINE_MS = 60_000;

export type RemoteRunStatus = RunEntity['status'] | 'unknown';

const STATUS_NAMES: Record<number, RemoteRunStatus> = {
  [RunStatus.RUN_STATUS_PENDING]: 'pending',
  [RunStatus.RUN_STATUS_RUNNING]: 'running',
  [RunStatus.RUN_STATUS_COMPLETED]: 'completed',
  [RunStatus.RUN_STATUS_FAILED]: 'failed',
  [RunStatus.RUN_STATUS_STOPPED]: 'stopped',
  [RunStatus.RUN_STATUS_COMPLETED_WITH_FAILURES]: 'completed-with-failures',
  [RunStatus.RUN_STATUS_INTERRUPTED]: 'interrupted',
  [RunStatus.RUN_STATUS_CANCELLED]: 'cancelled',
};

export function remoteRunStatus(run: Run): RemoteRunStatus {
  return STATUS_NAMES[run.status] ?? 'unknown';
}

export function isFinished(run: Run): boolean {
  const s = remoteRunStatus(run);
  return s !== 'unknown' && s !== 'pending' && s !== 'running';
}

// gRPC client of precis.v1.RunService on a gateway (--remote host:port).
export class RemoteRuns {
  protected readonly client: RunServiceClient;

  constructor(
    readonly address: string,
    protected readonly access: RemoteAccess,
  ) {
    this.client = new RunServiceClient(address, access.channel);
  }

  // The spec goes as JSON with dataset paths already absolute (loadSpecFile resolves them):
  // the gateway reads the files itself, so it must see the same paths (same machine or volume).
  // `preflight: false` skips the gateway's one request per model endpoint (not its key check).
  async createRun(
    spec: BenchmarkSpec,
    opts: { fresh?: boolean; specDir?: string; preflight?: boolean } = {},
  ) {
    const md = callMetadata(this.access, opts.specDir ? { [SPEC_DIR_METADATA]: opts.specDir } : {});
    const request: CreateRunRequest = {
      specJson: JSON.stringify(spec),
      fresh: opts.fresh === true,
      skipPreflight: opts.preflight === false,
    };
    const res = await this.call<{ run?: Run; resumed: boolean }>((o, cb) =>
      this.client.createRun(request, md, o, cb),
    );
    if (!res.run) throw new Error(`gateway ${this.address} answered CreateRun without a run`);
    return { run: res.run, resumed: res.resumed };
  }

  async getRun(runId: string): Promise<Run> {
    const res = await this.call<{ run?: Run }>((o, cb) =>
      this.client.getRun({ runId }, callMetadata(this.access), o, cb),
    );
    if (!res.run) throw new Error(`gateway ${this.address} answered GetRun without a run`);
    return res.run;
  }

  // Most recent first, following pages up to `limit` runs (default 50); `status` filters.
  async listRuns(opts: { status?: RunStatus; limit?: number } = {}): Promise<Run[]> {
    const limit = opts.limit || 50;
    const out: Run[] = [];
    let pageToken = '';
    do {
      const request = {
        status: opts.status ?? RunStatus.RUN_STATUS_UNSPECIFIED,
        limit: 0,
        pageSize: Math.min(limit - out.length, 100),
        pageToken,
      };
      const page = await this.call<{ runs: Run[]; nextPageToken: string }>((o, cb) =>
        this.client.listRuns(request, callMetadata(this.access), o, cb),
      );
      out.push(...page.runs);
      pageToken = page.nextPageToken;
    } while (pageToken && out.length < limit);
    return out;
  }

  async cancelRun(runId: string, reason: string): Promise<Run> {
    const res = await this.call<{ run?: Run }>((o, cb) =>
      this.client.cancelRun({ runId, reason }, callMetadata(this.access), o, cb),
    );
    if (!res.run) throw new Error(`gateway ${this.address} answered CancelRun without a run`);
    return res.run;
  }

  // The run's leaderboards rendered by the gateway, as `precis report` renders them locally.
  // alpha: the leaderboards' significance level (the spec's when absent).
  async report(
    runId: string,
    format: string,
    wide = false,
    alpha?: number,
  ): Promise<{ text: string; hasResults: boolean }> {
    return this.call<{ text: string; hasResults: boolean }>((o, cb) =>
      this.client.getRunReport({ runId, format, wide, alpha: alpha ?? 0 }, callMetadata(this.access), o, cb),
    );
  }

  // The cross-run leaderboard rendered by the gateway.
  async leaderboard(request: GetLeaderboardRequest): Promise<string> {
    const res = await this.call<{ text: string }>((o, cb) =>
      this.client.getLeaderboard(request, callMetadata(this.access), o, cb),
    );
    return res.text;
  }

  // A meta-evaluation computed on the gateway's database, as JSON.
  async meta(queryJson: string): Promise<string> {
    const res = await this.call<{ resultJson: string }>((o, cb) =>
      this.client.getMetaReport({ queryJson }, callMetadata(this.access), o, cb),
    );
    return res.resultJson;
  }

  close(): void {
    this.client.close();
  }

  protected call<T>(
    invoke: (
      options: { deadline: Date },
      callback: (error: ServiceError | null, response: T) => void,
    ) => unknown,
  ): Promise<T> {
    return grpcCall(this.address, DEADLINE_MS, invoke);
  }
}

// One progress line: "running — summarize 3/10, verify 0/4 (1 failed), score 0/1 — $0.0123", the
// cost spent so far (calls in flight apart: "$0.0123 spent (+$0.2500 reserved in flight)").
export function describeRemoteProgress(run: Run): string {
  const stages = new Map<string, { total: number; done: number; failed: number; cancelled: number }>();
  for (const [key, n] of Object.entries(run.taskCounts)) {
    const dot = key.indexOf('.');
    if (dot < 0) continue;
    const stage = key.slice(0, dot);
    const s = stages.get(stage) ?? { total: 0, done: 0, failed: 0, cancelled: 0 };
    const field = key.slice(dot + 1);
    if (field === 'total' || field === 'done' || field === 'failed' || field === 'cancelled')
      s[field] = Number(n);
    stages.set(stage, s);
  }
  const order = ['retrieve', 'summarize', 'verify', 'score'];
  const parts = [...stages.entries()]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([stage, s]) => `${stage} ${s.done}/${s.total}${endedEarly(s.failed, s.cancelled)}`);
  return `${remoteRunStatus(run)} — ${parts.length ? parts.join(', ') : 'planning'} — ${costText(run)}`;
}

export interface FollowOptions {
  pollMs?: number;
  signal?: AbortSignal;
  onProgress?: (line: string, run: Run) => void;
  // How long the gateway may stay unreachable (restarting, its database or bus down) before
  // following gives up (default 2 minutes); `onUnreachable` hears each outage once.
  reconnectMs?: number;
  onUnreachable?: (message: string) => void;
  // Told once when the run becomes blocked (a stage queue keeps failing; `run.blockedBy`), again
  // if the reason changes, and once when it is no longer blocked.
  onBlocked?: (line: string, run: Run) => void;
}

// The line `onBlocked` hears when the run's blockedBy changed to `blockedBy`.
export function describeBlocked(blockedBy: string): string {
  return blockedBy ? `blocked: ${blockedBy}` : 'no longer blocked: its stage queues work again';
}

// GetRun, tried again while the gateway answers UNAVAILABLE, for up to opts.reconnectMs.
async function getRunRiding(runs: RemoteRuns, runId: string, opts: FollowOptions): Promise<Run> {
  let since: number | null = null;
  for (;;) {
    try {
      return await runs.getRun(runId);
    } catch (err) {
      if (!(err instanceof GatewayCallError) || !err.transient || opts.signal?.aborted) throw err;
      const now = Date.now();
      if (since === null) {
        since = now;
        opts.onUnreachable?.(`${err.message}; trying again`);
      } else if (now - since > (opts.reconnectMs ?? 120_000))
        throw new Error(
          `${err.message} (for ${Math.round((now - since) / 1000)} s; the run goes on in the cluster)`,
        );
      await sleepUnlessAborted(opts.pollMs ?? 1000, opts.signal);
    }
  }
}

// Polls GetRun until the run finishes (or `signal` aborts: the run keeps going in the cluster).
// Prints a line only when the progress (or what blocks the run) changed.
export async function followRemoteRun(
  runs: RemoteRuns,
  runId: string,
  opts: FollowOptions = {},
): Promise<{ run: Run; interrupted: boolean }> {
  const pollMs = opts.pollMs ?? 1000;
  let last = '';
  let blocked = '';
  for (;;) {
    const run = await getRunRiding(runs, runId, opts);
    if (run.blockedBy !== blocked) opts.onBlocked?.(describeBlocked(run.blockedBy), run);
    blocked = run.blockedBy;
    const line = describeRemoteProgress(run);
    if (line !== last) opts.onProgress?.(line, run);
    last = line;
    if (isFinished(run)) return { run, interrupted: false };
    if (opts.signal?.aborted) return { run, interrupted: true };
    await sleepUnlessAborted(pollMs, opts.signal);
  }
}

// `precis run <spec> --remote host:port`: submit, follow, report the outcome. Returns the exit code.
export async function runRemote(
  out: { stderr: NodeJS.WritableStream },
  address: string,
  access: RemoteAccess,
  spec: BenchmarkSpec,
  opts: { fresh?: boolean; specDir?: string; preflight?: boolean; signal?: AbortSignal; pollMs?: number },
): Promise<{ exitCode: number; run: Run }> {
  const runs = new RemoteRuns(address, access);
  try {
    const { run, resumed } = await runs.createRun(spec, {
      fresh: opts.fresh,
      specDir: opts.specDir,
      preflight: opts.preflight,
    });
    out.stderr.write(
      `${resumed ? 'resuming' : 'started'} run ${run.id} (${run.name}) — gateway at ${address}\n`,
    );
    const followed = await followRemoteRun(runs, run.id, {
      pollMs: opts.pollMs,
      signal: opts.signal,
      onProgress: (line) => out.stderr.write(`${line}\n`),
      onUnreachable: (message) => out.stderr.write(`${message}\n`),
      onBlocked: (line) => out.stderr.write(`${line}\n`),
    });
    if (followed.interrupted) {
      out.stderr.write(
        `stopped following run ${run.id}; it keeps running in the cluster (\`precis run\` of the same spec follows it again)\n`,
      );
      return { exitCode: 130, run: followed.run };
    }
    const final = followed.run;
    const state = remoteRunStatus(final);
    out.stderr.write(`run ${final.id} ${state}${final.error ? `: ${final.error}` : ''}\n`);
    return { exitCode: state === 'unknown' ? 1 : exitCodeOf(state), run: final };
  } finally {
    runs.close();
  }
}
