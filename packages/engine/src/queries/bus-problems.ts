import type { RunStatus } from '@precis/db';
import type { DataSource } from 'typeorm';
import { openOf, type StageTotals } from '../planner/run-progress.js';
import { freshBusProblems } from '../stores/bus-problems.store.js';

// A process refreshes its row every 10 s while the problem lasts (see the service kit's
// BusProblemsReporter); one older than this is from a process that stopped or recovered unseen.
export const BUS_PROBLEM_FRESH_SECONDS = 30;

/**
 * Why the run cannot progress right now: the stage queues that keep failing in some process
 * (bus_problems) among the stages where the run has open tasks, one line each; '' when none, or
 * when nothing drives the run now (only a pending or running run can be held up by a queue).
 */
export async function runBlockedBy(
  db: DataSource,
  status: RunStatus,
  counts: Record<string, StageTotals>,
): Promise<string> {
  if (status !== 'pending' && status !== 'running') return '';
  const stages = Object.entries(counts)
    .filter(([, c]) => openOf(c) > 0)
    .map(([stage]) => stage);
  if (stages.length === 0) return '';
  return (await freshBusProblems(db, stages, BUS_PROBLEM_FRESH_SECONDS)).join('; ');
}
