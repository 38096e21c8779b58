import { batcherFor, type TurnBatcher } from '@precis/db/group-commit';
import type { DataSource } from 'typeorm';
import { summaryTextRows } from '../stores/summaries.store.js';

// A run's summaries never change once written: their texts are memoized (bounded) so the
// (summary, dimension) tasks of one summary, which run concurrently, read it once; the summaries
// asked for in one event-loop turn are read with one query.
const texts = new Map<string, Promise<string | null>>();
const MAX_TEXTS = 4096;
const textBatchers = new WeakMap<DataSource, TurnBatcher<string, string | null>>();

export function summaryText(db: DataSource, summaryId: string): Promise<string | null> {
  let hit = texts.get(summaryId);
  if (!hit) {
    hit = batcherFor(textBatchers, db, (ids: string[]) => readSummaryTexts(db, ids))
      .submit(summaryId)
      .then((text) => {
        // A summary that does not exist (yet) is not remembered.
        if (text === null) texts.delete(summaryId);
        return text;
      });
    hit.catch(() => texts.delete(summaryId));
    keep(summaryId, hit);
  }
  return hit;
}

// A text read along with something else (a judge task's claim), kept as if read here.
export function rememberSummaryText(summaryId: string, text: string): void {
  if (!texts.has(summaryId)) keep(summaryId, Promise.resolve(text));
}

// Memoizes, evicting the oldest entry when the memo is full.
function keep(summaryId: string, text: Promise<string | null>): void {
  if (texts.size >= MAX_TEXTS) texts.delete(texts.keys().next().value!);
  texts.set(summaryId, text);
}

async function readSummaryTexts(db: DataSource, ids: string[]): Promise<(string | null)[]> {
  const rows = await summaryTextRows(db, ids);
  const byId = new Map(rows.map((r) => [r.id, r.text]));
  return ids.map((id) => byId.get(id) ?? null);
}
