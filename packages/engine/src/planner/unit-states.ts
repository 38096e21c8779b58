import type { DataSource } from 'typeorm';
import { SYSTEM_SCOPE, unitKey } from '../ids.js';
import { unitTaskRows } from '../stores/tasks.store.js';
import type { SummaryTaskResult } from '../tasks/task-payloads.js';
import type { UnitState } from './plan-unit.js';

// The unit key of a unit's system-wide steps.
export const scopeOf = (unit: string): string => unitKey(unit.slice(0, unit.indexOf(':')), SYSTEM_SCOPE);

// The retrieve and summarize tasks of the given units (all of the run's when null) and of their
// systems' system-wide steps, grouped by unit.
export async function loadUnitStates(
  db: DataSource,
  runId: string,
  units: string[] | null,
): Promise<Map<string, UnitState>> {
  const keys = units ? [...new Set([...units, ...units.map(scopeOf)])] : null;
  const rows = await unitTaskRows<SummaryTaskResult>(db, runId, keys);
  const states = new Map<string, UnitState>();
  for (const r of rows) {
    const state = states.get(r.unit) ?? { results: new Map<string, string>(), failed: null };
    states.set(r.unit, state);
    const step = r.id.slice(r.id.indexOf(`:${r.unit}:`) + r.unit.length + 2);
    if (r.status === 'done' && r.result) state.results.set(step, r.result.text);
    else if ((r.status === 'failed' || r.status === 'dead') && !state.failed)
      state.failed = { taskId: r.id, error: r.error };
  }
  return states;
}

// A unit's state with its system's system-wide results; a failed system-wide step fails it.
export function unitState(states: ReadonlyMap<string, UnitState>, key: string): UnitState {
  const own = states.get(key) ?? { results: new Map<string, string>(), failed: null };
  const scope = states.get(scopeOf(key));
  return scope ? { results: own.results, failed: own.failed ?? scope.failed, shared: scope.results } : own;
}
