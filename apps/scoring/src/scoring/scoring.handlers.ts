import type { Stage } from '@precis/contracts';
import type { RunStage } from '@precis/engine';
import type { TaskHandler } from '@precis/service';

// The stage queues this service declares at startup.
export const SCORING_STAGES: Stage[] = ['score', 'aggregate'];

// Consumed by the run runtime: a run's score task (BooookScore per summary and system, bootstrap
// CI, summary statistics, usage) writes the leaderboard rows.
export const SCORING_RUN_STAGES: RunStage[] = ['score'];

// Stages served by the service kit's task worker, with the task kinds it can run there. None
// exist yet for 'aggregate': such a task is recorded as failed with an 'unknown task kind' error
// and dead-lettered, so a producer ahead of this service is visible instead of silently dropped.
export const SCORING_KIT_STAGES: Stage[] = ['aggregate'];
export const SCORING_TASK_HANDLERS: readonly TaskHandler[] = [];
