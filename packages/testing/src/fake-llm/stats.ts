import type { SlotQueue } from './slots.js';
import type { FakeLlmStats, FakeRequestRecord } from './types.js';

// Counters and a bounded request log for the fake server.
export class StatsBook {
  total = 0;
  private s = emptyStats();
  private entries: FakeRequestRecord[] = [];

  constructor(private readonly maxLog: number) {}

  begin(
    method: string,
    path: string,
    model: string | null,
    auth: string | null,
    body: unknown,
    receivedAt: number,
  ) {
    this.total++;
    const s = this.s;
    s.total++;
    s.byPath[path] = (s.byPath[path] ?? 0) + 1;
    if (model) s.byModel[model] = (s.byModel[model] ?? 0) + 1;
    s.inFlight++;
    s.maxInFlight = Math.max(s.maxInFlight, s.inFlight);
    const rec: FakeRequestRecord = {
      seq: this.total,
      method,
      path,
      model,
      authorization: auth,
      body,
      receivedAt,
      respondedAt: null,
      status: null,
      fault: null,
    };
    this.entries.push(rec);
    if (this.entries.length > this.maxLog) this.entries.shift();
    return rec;
  }

  end(rec: FakeRequestRecord, status: number | null): void {
    this.s.inFlight--;
    rec.respondedAt = Date.now();
    rec.status = status;
    const key = status === null ? 'none' : String(status);
    this.s.byStatus[key] = (this.s.byStatus[key] ?? 0) + 1;
  }

  fault(kind: string): void {
    this.s.faults[kind] = (this.s.faults[kind] ?? 0) + 1;
  }

  slotAcquired(slots: SlotQueue): void {
    this.s.maxActive = Math.max(this.s.maxActive, slots.active);
  }

  observeQueue(queued: number): void {
    this.s.maxQueued = Math.max(this.s.maxQueued, queued);
  }

  slotReleased(heldMs: number): void {
    this.s.busySlotMs += heldMs;
  }

  chatDone(prompt: number, completion: number): void {
    this.s.completedChats++;
    this.s.promptTokens += prompt;
    this.s.completionTokens += completion;
  }

  embeddingDone(): void {
    this.s.completedEmbeddings++;
  }

  snapshot(slots: SlotQueue): Omit<FakeLlmStats, 'batches'> {
    const s = this.s;
    return {
      ...s,
      byPath: { ...s.byPath },
      byModel: { ...s.byModel },
      byStatus: { ...s.byStatus },
      faults: { ...s.faults },
      active: slots.active,
      queued: slots.queued,
    };
  }

  // Keeps the live gauges (in flight) so a reset mid-traffic stays consistent.
  reset(): void {
    const inFlight = this.s.inFlight;
    this.s = emptyStats();
    this.s.inFlight = inFlight;
    this.s.maxInFlight = inFlight;
    this.entries = [];
  }

  log(): FakeRequestRecord[] {
    return [...this.entries];
  }
}

function emptyStats(): Omit<FakeLlmStats, 'batches'> {
  return {
    total: 0,
    byPath: {},
    byModel: {},
    byStatus: {},
    faults: {},
    inFlight: 0,
    maxInFlight: 0,
    active: 0,
    maxActive: 0,
    queued: 0,
    maxQueued: 0,
    busySlotMs: 0,
    completedChats: 0,
    completedEmbeddings: 0,
    promptTokens: 0,
    completionTokens: 0,
  };
}
