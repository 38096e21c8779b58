import type { DataSource } from 'typeorm';
import { taskResult } from '../stores/tasks.store.js';

// A finished task's result never changes: the results tasks read as their input (a payload's
// `inputTask`) are memoized per database (bounded), filled by the claims that read them along
// (task-store.ts) and otherwise read here.
const MAX_RESULTS = 4096;
const memos = new WeakMap<DataSource, Map<string, Promise<Record<string, unknown> | null>>>();

function memoOf(db: DataSource): Map<string, Promise<Record<string, unknown> | null>> {
  let memo = memos.get(db);
  if (!memo) {
    memo = new Map();
    memos.set(db, memo);
  }
  return memo;
}

function keep(
  memo: Map<string, Promise<Record<string, unknown> | null>>,
  id: string,
  result: Promise<Record<string, unknown> | null>,
): void {
  if (memo.size >= MAX_RESULTS) memo.delete(memo.keys().next().value!);
  memo.set(id, result);
}

// The stored result of a finished task; null when it has none (not remembered: it may finish yet).
export function inputTaskResult<T = Record<string, unknown>>(
  db: DataSource,
  taskId: string,
): Promise<T | null> {
  const memo = memoOf(db);
  let hit = memo.get(taskId);
  if (!hit) {
    hit = taskResult(db, taskId);
    hit.then(
      (result) => {
        if (result === null) memo.delete(taskId);
      },
      () => memo.delete(taskId),
    );
    keep(memo, taskId, hit);
  }
  return hit as Promise<T | null>;
}

// A finished task's result read along with a claim, kept as if read here.
export function rememberInputResult(db: DataSource, taskId: string, result: Record<string, unknown>): void {
  const memo = memoOf(db);
  if (!memo.has(taskId)) keep(memo, taskId, Promise.resolve(result));
}
