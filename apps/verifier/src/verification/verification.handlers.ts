import type { Stage } from '@precis/contracts';
import type { TaskHandler } from '@precis/service';

// The stage queue(s) this service owns.
export const VERIFICATION_STAGES: Stage[] = ['verify'];

// Task kinds this service can run (judge and verification batches). None exist yet: every task received is recorded as
// failed with an 'unknown task kind' error and dead-lettered, so a producer ahead of this
// service is visible instead of silently dropped.
export const VERIFICATION_TASK_HANDLERS: readonly TaskHandler[] = [];
