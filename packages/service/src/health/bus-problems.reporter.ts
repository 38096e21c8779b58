import { hostname } from 'node:os';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Bus, BusProblem } from '@precis/bus';
import { deleteBusProblems, upsertBusProblem } from '@precis/engine';
import { DataSource } from 'typeorm';
import { BUS, SERVICE_INFO, SERVICE_LOGGER, type ServiceInfo } from '../core/tokens.js';
import type { ServiceLogger } from '../logging/create-logger.js';

// How often the bus's problems are looked at (in memory), and how often a lasting one is written
// again so that readers (BUS_PROBLEM_FRESH_SECONDS in @precis/engine) know it still holds.
const CHECK_EVERY_MS = 5_000;
const REFRESH_EVERY_MS = 10_000;

interface StageProblem {
  text: string;
  since: Date;
  problems: BusProblem[];
}

// One entry per stage: its operations' summaries on one line, since the earliest.
function byStage(problems: BusProblem[]): Map<string, StageProblem> {
  const out = new Map<string, StageProblem>();
  for (const p of problems) {
    const s = out.get(p.stage);
    if (!s) out.set(p.stage, { text: p.summary, since: p.since, problems: [p] });
    else {
      s.text += `; ${p.summary}`;
      s.problems.push(p);
      if (p.since < s.since) s.since = p.since;
    }
  }
  return out;
}

/**
 * Publishes this process's stage-queue problems (Bus.problems()) where every process sees them:
 * one bus_problems row per failing stage, refreshed while it lasts and deleted when it clears, so
 * a run with open tasks on that stage shows why it is not progressing. Logs each change once.
 */
@Injectable()
export class BusProblemsReporter implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly reporter: string;
  private readonly log: ServiceLogger;
  private timer?: NodeJS.Timeout;
  private syncing: Promise<void> | null = null;
  // What the table holds for this process (stage -> line), and when it was last written.
  private written = new Map<string, string>();
  private writtenAt = 0;
  // What was last logged per stage (writes may fail while logging goes on).
  private logged = new Map<string, string>();
  private lastError = '';

  constructor(
    private readonly dataSource: DataSource,
    @Inject(BUS) private readonly bus: Bus,
    @Inject(SERVICE_INFO) info: ServiceInfo,
    @Inject(SERVICE_LOGGER) logger: ServiceLogger,
  ) {
    this.reporter = `${info.name}@${hostname()}:${process.pid}`;
    this.log = logger.child({ component: 'bus-health' });
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sync(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.syncing;
    if (this.written.size === 0) return;
    // Best effort: a row left behind goes stale by itself.
    await deleteBusProblems(this.dataSource, this.reporter).catch(() => undefined);
  }

  /** Looks at the bus's problems now and writes what changed (or refreshes what lasts). */
  sync(): Promise<void> {
    this.syncing ??= this.syncOnce().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async syncOnce(): Promise<void> {
    const now = byStage(this.bus.problems());
    this.logChanges(now);
    const changed =
      now.size !== this.written.size || [...now].some(([stage, p]) => this.written.get(stage) !== p.text);
    if (!changed && (now.size === 0 || Date.now() - this.writtenAt < REFRESH_EVERY_MS)) return;
    try {
      await this.write(now);
      this.written = new Map([...now].map(([stage, p]) => [stage, p.text]));
      this.writtenAt = Date.now();
      this.lastError = '';
    } catch (err) {
      // The database may be down too: tried again on the next check, logged once per error.
      const text = err instanceof Error ? err.message : String(err);
      if (text !== this.lastError) this.log.warn({ err }, 'cannot record the bus problems; retrying');
      this.lastError = text;
    }
  }

  private async write(now: Map<string, StageProblem>): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await deleteBusProblems(em, this.reporter, [...now.keys()]);
      for (const [stage, p] of now)
        await upsertBusProblem(em, { reporter: this.reporter, stage, problem: p.text, since: p.since });
    });
  }

  private logChanges(now: Map<string, StageProblem>): void {
    for (const [stage, p] of now) {
      if (this.logged.get(stage) === p.text) continue;
      for (const problem of p.problems)
        this.log.warn(
          {
            stage,
            stream: problem.stream,
            operation: problem.operation,
            error: problem.error,
            failingMs: problem.failingMs,
          },
          `${problem.summary}: not ready until it works again`,
        );
    }
    for (const stage of this.logged.keys())
      if (!now.has(stage)) this.log.info({ stage }, `${stage} queue works again`);
    this.logged = new Map([...now].map(([stage, p]) => [stage, p.text]));
  }
}
