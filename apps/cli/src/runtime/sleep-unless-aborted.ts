// Waits `ms`, or less when `signal` aborts. The abort listener goes when the wait ends: a poll
// loop that added one per wait passed Node's 10-listener warning after 11 polls.
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
