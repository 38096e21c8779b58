import {
  batchText,
  costText,
  type RunProgress,
  type StageCounts,
  stageCounts,
  type UsageSoFar,
  usageSoFar,
} from '@precis/engine';
import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import type { DataSource } from 'typeorm';
import { formatEta, StageEta } from './stage-eta.js';

const STAGES = ['retrieve', 'summarize', 'verify', 'score'] as const;

export interface RunProgressView {
  refresh(): Promise<void>;
  stop(): void;
}

// Per stage: finished (done + failed, dead counting as failed) of total, failures, and an ETA
// from the observed rate (StageEta); the plain line leaves the ETA out of its change check.
function stageParts(
  counts: Record<string, StageCounts>,
  etas: Map<string, StageEta>,
  now: number,
): { stage: string; finished: number; total: number; failed: string; eta: string }[] {
  return STAGES.filter((s) => counts[s]).map((stage) => {
    const c = counts[stage]!;
    const finished = c.done + c.failed;
    const eta = etas.get(stage) ?? new StageEta();
    etas.set(stage, eta);
    return {
      stage,
      finished,
      total: c.total,
      failed: endedEarly(c.failed, c.cancelled),
      eta: formatEta(eta.update(now, finished, c.total)),
    };
  });
}

// ' (2 failed, 5 cancelled)': work that failed, and work that ended with its run unfinished.
export function endedEarly(failed: number, cancelled: number): string {
  const parts = [failed ? `${failed} failed` : '', cancelled ? `${cancelled} cancelled` : ''].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

// '1000 tokens (300 cached, 80 reasoning)': the shares only where a model reported them.
function tokensText(u: UsageSoFar): string {
  const shares = [
    u.tokensCached ? `${u.tokensCached} cached` : '',
    u.tokensReasoning ? `${u.tokensReasoning} reasoning` : '',
  ].filter(Boolean);
  return `${u.tokensIn + u.tokensOut} tokens${shares.length ? ` (${shares.join(', ')})` : ''}`;
}

// The cost is what settled calls spent (it never goes down); calls in flight are said apart at
// their reserved cost, which they settle below.
const usageText = (u: UsageSoFar) =>
  `${u.calls} model calls, ${tokensText(u)}, ${costText(u)}${batchText(u)}`;

// One bar per stage (done/total, failures, ETA) plus model calls, tokens and cost so far,
// refreshed from the database; plain periodic lines when stderr is not a terminal.
export function runProgressView(stream: NodeJS.WriteStream, db: DataSource, runId: string): RunProgressView {
  const started = Date.now();
  const etas = new Map<string, StageEta>();
  if (stream.isTTY) {
    const multi = new MultiBar(
      {
        stream,
        hideCursor: true,
        clearOnComplete: false,
        format: '{stage} [{bar}] {value}/{total}{failed} | {eta} | {usage}',
      },
      Presets.shades_classic,
    );
    const bars = new Map<string, SingleBar>();
    return {
      async refresh() {
        const [counts, usage] = await Promise.all([stageCounts(db, runId), usageSoFar(db, runId)]);
        for (const p of stageParts(counts, etas, Date.now())) {
          const payload = { stage: p.stage.padEnd(9), failed: p.failed, eta: p.eta, usage: usageText(usage) };
          let bar = bars.get(p.stage);
          if (!bar) {
            bar = multi.create(p.total, p.finished, payload);
            bars.set(p.stage, bar);
          }
          bar.setTotal(p.total);
          bar.update(p.finished, payload);
        }
      },
      stop() {
        multi.stop();
      },
    };
  }
  let last = '';
  return {
    async refresh() {
      const [counts, usage] = await Promise.all([stageCounts(db, runId), usageSoFar(db, runId)]);
      const { progress, line } = plainProgress(counts, usage, etas, Date.now());
      if (progress === last) return;
      last = progress;
      stream.write(`[${((Date.now() - started) / 1000).toFixed(0)}s] ${line}\n`);
    },
    stop() {},
  };
}

// The plain (non-TTY) line, e.g. 'summarize 12/40 (2 failed) ETA 1m 20s, verify 0/0 ETA 0s |
// 14 model calls, ...'; `progress` is the same without ETAs: a new line is printed when it changes.
export function plainProgress(
  counts: Record<string, StageCounts>,
  usage: UsageSoFar,
  etas: Map<string, StageEta>,
  now: number,
): { progress: string; line: string } {
  const parts = stageParts(counts, etas, now);
  const stage = (p: (typeof parts)[number]) => `${p.stage} ${p.finished}/${p.total}${p.failed}`;
  return {
    progress: `${parts.map(stage).join(', ')} | ${usageText(usage)}`,
    line: `${parts.map((p) => `${stage(p)} ${p.eta}`).join(', ')} | ${usageText(usage)}`,
  };
}

// e.g. 'run <id>: completed; summaries 3/4 (1 failed); verify: 26 of 26 tasks failed'.
// The run's status and summaries; a run with failures carries their counts and the first
// failure's message in its error (set by the planner).
export function describeOutcome(p: RunProgress): string {
  const summary = `summaries ${p.summaries.done}/${p.summaries.expected}${p.summaries.failed ? ` (${p.summaries.failed} failed)` : ''}`;
  return `run ${p.runId}: ${p.status}; ${summary}${p.error ? `; ${p.error}` : ''}`;
}
