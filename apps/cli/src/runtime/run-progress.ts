import { type RunProgress, stageCounts, usageSoFar } from '@precis/runs';
import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import type { DataSource } from 'typeorm';

const STAGES = ['summarize', 'verify', 'score'] as const;

export interface RunProgressView {
  refresh(): Promise<void>;
  stop(): void;
}

// One bar per stage (done/total, ETA) plus model calls, tokens and cost so far, refreshed from
// the database; plain periodic lines when stderr is not a terminal.
export function runProgressView(stream: NodeJS.WriteStream, db: DataSource, runId: string): RunProgressView {
  const started = Date.now();
  if (stream.isTTY) {
    const multi = new MultiBar(
      {
        stream,
        hideCursor: true,
        clearOnComplete: false,
        format:
          '{stage} [{bar}] {value}/{total} | ETA {eta_formatted} | {calls} calls, {tokens} tokens, USD {cost}',
      },
      Presets.shades_classic,
    );
    const bars = new Map<string, SingleBar>();
    return {
      async refresh() {
        const [counts, usage] = await Promise.all([stageCounts(db, runId), usageSoFar(db, runId)]);
        for (const stage of STAGES) {
          const c = counts[stage];
          if (!c) continue;
          const payload = {
            stage: stage.padEnd(9),
            calls: usage.calls,
            tokens: usage.tokensIn + usage.tokensOut,
            cost: usage.costUsd.toFixed(4),
          };
          let bar = bars.get(stage);
          if (!bar) {
            bar = multi.create(c.total, c.done + c.failed, payload);
            bars.set(stage, bar);
          }
          bar.setTotal(c.total);
          bar.update(c.done + c.failed, payload);
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
      const parts = STAGES.filter((s) => counts[s]).map(
        (s) => `${s} ${counts[s]!.done + counts[s]!.failed}/${counts[s]!.total}`,
      );
      const line = `${parts.join(', ')} | ${usage.calls} model calls, ${usage.tokensIn + usage.tokensOut} tokens, $${usage.costUsd.toFixed(4)}`;
      if (line !== last) stream.write(`[${((Date.now() - started) / 1000).toFixed(0)}s] ${line}\n`);
      last = line;
    },
    stop() {},
  };
}

export function describeOutcome(p: RunProgress): string {
  const summary = `summaries ${p.summaries.done}/${p.summaries.expected}${p.summaries.failed ? ` (${p.summaries.failed} failed)` : ''}`;
  return `run ${p.runId}: ${p.status}; ${summary}${p.error ? `; ${p.error}` : ''}`;
}
