import type { Stage } from '@precis/contracts';

// The stage queue(s) this service owns. No task kind exists there yet (index builds and top-k
// queries): every task received is recorded as failed with an 'unknown task kind' error and
// dead-lettered, so a producer ahead of this service is visible instead of silently dropped.
export const RETRIEVAL_STAGES: Stage[] = ['retrieve'];
