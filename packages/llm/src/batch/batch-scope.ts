import { AsyncLocalStorage } from 'node:async_hooks';

// A task whose stage its run sends through provider batches (spec limits.batch) runs its work in
// a batch scope: a model call of a batch-enabled model that the cache cannot answer is parked
// for the model's next batch instead of being sent, and the work ends with CallParkedError once
// every call it started has been parked or answered. The task then waits (no worker holds it)
// until the batch answers, and runs again: its calls are then answered from the cache.
interface BatchScope {
  taskId: string;
  runId: string | null;
  // Cache keys parked by this run of the work, and parks still being written.
  parked: string[];
  pending: Set<Promise<unknown>>;
}

const scopes = new AsyncLocalStorage<BatchScope>();

export class CallParkedError extends Error {
  constructor(
    readonly taskId: string,
    readonly cacheKeys: readonly string[],
  ) {
    super(`task ${taskId} waits for a provider batch to answer ${cacheKeys.length} model call(s)`);
    this.name = 'CallParkedError';
  }
}

export async function withBatchScope<T>(
  task: { taskId: string; runId: string | null },
  work: () => Promise<T>,
): Promise<T> {
  const scope: BatchScope = { ...task, parked: [], pending: new Set() };
  try {
    return await scopes.run(scope, work);
  } catch (err) {
    // Calls running beside the one that parked (Promise.all rejects at the first) park too
    // before the task waits, so that one batch round answers all of them.
    while (scope.pending.size > 0) await Promise.allSettled([...scope.pending]);
    if (err instanceof CallParkedError) throw new CallParkedError(task.taskId, [...new Set(scope.parked)]);
    throw err;
  }
}

export interface ActiveBatchScope {
  taskId: string;
  runId: string | null;
  // Runs a park of call `cacheKey` (the work's end waits for it); `parked` says it now waits.
  park<T extends { parked: boolean }>(cacheKey: string, park: () => Promise<T>): Promise<T>;
}

// The scope of this task's work, when it runs in one (the call's taskId must be the scope's).
export function batchScopeOf(taskId: string | null | undefined): ActiveBatchScope | null {
  const scope = scopes.getStore();
  if (!scope || !taskId || scope.taskId !== taskId) return null;
  return {
    taskId: scope.taskId,
    runId: scope.runId,
    async park(cacheKey, park) {
      const running = park();
      scope.pending.add(running);
      try {
        const out = await running;
        if (out.parked) scope.parked.push(cacheKey);
        return out;
      } finally {
        scope.pending.delete(running);
      }
    },
  };
}
