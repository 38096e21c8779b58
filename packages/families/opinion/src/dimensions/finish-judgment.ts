import { batcherFor, inDistinctRounds, type TurnBatcher } from '@precis/db/group-commit';
import { type LlmCallRecord, withHeldLedger } from '@precis/engine/family';
import type { DataSource } from 'typeorm';
import { finishDimensionJudgments } from '../store.js';

export interface DimensionJudgmentWrite {
  taskId: string;
  status: 'done' | 'failed';
  result: Record<string, unknown>;
  error: string | null;
  runId: string;
  summaryId: string;
  documentId: string;
  system: string;
  judgmentId: string;
  metricValueId: string;
  // 'dimension:<canonical id>' (what packages/meta reads).
  metric: string;
  value: number | null;
  details: Record<string, unknown>;
  judge: string;
  template: string;
  producedBy: string;
}

const finishBatchers = new WeakMap<DataSource, TurnBatcher<HeldWrite, boolean>>();

// Finishes a judge task and writes its judgment and its metric_values row atomically; the rows
// are written only when this call is the one that finished the task (true). Concurrent finishes
// in one event-loop turn share one statement (group commit); each resolves once it is written.
// The ledger records the task's calls hold (the engine's ledger scope) go into that statement too.
export function finishDimensionJudgment(db: DataSource, w: DimensionJudgmentWrite): Promise<boolean> {
  return withHeldLedger((ledger) =>
    batcherFor(finishBatchers, db, (ws: HeldWrite[]) => finishMany(db, ws)).submit({ ...w, ledger }),
  );
}

export type HeldWrite = DimensionJudgmentWrite & { ledger: readonly LlmCallRecord[] };

// One statement for writes whose tasks, judgments and metric values are all distinct; a write
// that repeats one of those ids (a duplicate delivery) goes into a later statement.
function finishMany(db: DataSource, writes: HeldWrite[]): Promise<boolean[]> {
  return inDistinctRounds(
    writes,
    (w) => [`t:${w.taskId}`, `j:${w.judgmentId}`, `m:${w.metricValueId}`],
    (ws) => finishDimensionJudgments(db, ws),
  );
}
