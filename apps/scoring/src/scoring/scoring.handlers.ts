import type { Stage } from '@precis/contracts';

// The stage queues this service pulls. 'score': a run's score task (each family's per-sample
// scorer, bootstrap CIs, summary statistics, usage) writes the leaderboard rows. No task kind
// exists yet for 'aggregate': such a task is recorded as failed with an 'unknown task kind'
// error and dead-lettered, so a producer ahead of this service is visible, not dropped.
export const SCORING_STAGES: Stage[] = ['score', 'aggregate'];
