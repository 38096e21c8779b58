import type { Bus, ConsumerHandle } from '@precis/bus';
import type { RunContext } from '../planner/run-context.js';
import type { RunProgress } from '../planner/run-progress.js';
import type { BatchProviders } from './batch-driver.js';
import { RunCoordinator } from './run-coordinator.js';
import { startStageWorker } from './stage-worker.js';

export interface ExecuteRunOptions {
  // Handlers per stage in this process.
  concurrency: number;
  onProgress?: (p: RunProgress) => void;
  // Aborting stops pulling new tasks, lets in-flight ones finish and persist, and resolves with
  // the run still 'running': starting again resumes it.
  signal?: AbortSignal;
  // The models' providers, for a run whose calls wait for provider batches (limits.batch).
  batchProviders?: BatchProviders;
}

export type ExecuteRunOutcome = { interrupted: false; progress: RunProgress } | { interrupted: true };

// Embedded execution: the planner and a worker per stage in this process, over the given bus.
export async function executeRun(
  ctx: RunContext,
  bus: Bus,
  runId: string,
  opts: ExecuteRunOptions,
): Promise<ExecuteRunOutcome> {
  const workers: ConsumerHandle[] = [];
  const coordinator = new RunCoordinator(ctx, bus, undefined, undefined, opts.batchProviders);
  try {
    // One at a time, so a failure part-way stops exactly the workers that started.
    for (const stage of ['retrieve', 'summarize', 'verify', 'score'] as const) {
      workers.push(
        await startStageWorker(ctx, bus, stage, { concurrency: stage === 'score' ? 1 : opts.concurrency }),
      );
    }
    await coordinator.start();
    const finished = coordinator
      .watch(runId, opts.onProgress)
      .then((progress) => ({ interrupted: false as const, progress }));
    if (!opts.signal) return await finished;
    const aborted = new Promise<ExecuteRunOutcome>((resolve) => {
      if (opts.signal!.aborted) resolve({ interrupted: true });
      opts.signal!.addEventListener('abort', () => resolve({ interrupted: true }), { once: true });
    });
    return await Promise.race([finished, aborted]);
  } finally {
    await coordinator.stop();
    await Promise.all(workers.map((w) => w.stop()));
  }
}
