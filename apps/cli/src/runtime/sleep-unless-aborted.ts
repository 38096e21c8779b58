import { setTimeout as delay } from 'node:timers/promises';

// Waits `ms`, or less when `signal` aborts. Node's timer removes its abort listener when the wait
// ends: a poll loop that added one per wait passed Node's 10-listener warning after 11 polls.
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal }).catch(() => undefined);
}
