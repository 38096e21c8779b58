// Only runs that ended with failures are worth counting the failures the response cache answered
// (countCachedFailures, in stores/ledger.store.ts).
export function endedWithFailures(status: string): boolean {
  return status === 'completed-with-failures' || status === 'failed';
}
