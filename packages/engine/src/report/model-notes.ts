import type { DataSource } from 'typeorm';
import { modelNoteRows } from '../stores/ledger.store.js';
import type { ReportBlock } from './report-blocks.js';

// How a system's calls to one model were shaped to it (a ledger note, e.g. "sampled at the
// model's fixed temperature 1 (asked 0.5)"), and how many of the calls its results used carry it.
export interface ModelNote {
  // '' for calls of no system (the run-wide score task).
  system: string;
  model: string;
  note: string;
  calls: number;
}

// Each distinct note of the run's result calls, per system and model (task ids are
// `<run>:<stage>:<system>:...`), ordered by system, model and note.
export async function loadModelNotes(db: DataSource, runId: string): Promise<ModelNote[]> {
  const rows = await modelNoteRows(db, runId);
  return rows.map((r) => ({ system: r.system, model: r.model, note: r.note, calls: Number(r.calls) }));
}

const callsText = (n: number) => `${n} call${n === 1 ? '' : 's'}`;

// e.g. 'hier-gpt5 (model gpt5): sampled at the model's fixed temperature 1 (asked 0.5) — 132 calls'.
export const modelNoteLine = (n: ModelNote): string =>
  `${n.system || 'run-wide'} (model ${n.model}): ${n.note} — ${callsText(n.calls)}`;

// The report's "How the models ran" block; none when no call was shaped to its model.
export function modelNotesBlocks(notes: readonly ModelNote[] | undefined): ReportBlock[] {
  if (!notes?.length) return [];
  return [
    {
      key: 'model-notes',
      heading: 'How the models ran',
      notes: [
        "Requests changed to fit the model they went to, per system and model; the calls counted are those the system's results used.",
      ],
      list: notes.map(modelNoteLine),
    },
  ];
}
