import type { Bus, Subscription } from '@precis/bus';
import type { TaskCompleted } from '@precis/contracts';
import { TASK_COMPLETED_SUBJECT, taskCompletedOf } from '@precis/engine';
import type { ServiceLogger } from '../logging/create-logger.js';

interface Waiter {
  resolve(event: TaskCompleted | null): void;
  timer: NodeJS.Timeout;
}

// One subscription to task-completed events shared by every caller waiting for a task. Register
// the wait BEFORE enqueueing, so a fast worker's event cannot be missed.
export class TaskCompletionWatcher {
  private readonly waiters = new Map<string, Waiter[]>();
  private sub: Subscription | null = null;

  constructor(
    private readonly bus: Bus,
    private readonly logger: ServiceLogger,
  ) {}

  async start(): Promise<void> {
    this.sub ??= await this.bus.subscribe(TASK_COMPLETED_SUBJECT, (data) => {
      const event = taskCompletedOf(data);
      if (!event) {
        this.logger.warn({ subject: TASK_COMPLETED_SUBJECT }, 'ignored an undecodable task-completed event');
        return;
      }
      this.settle(event.taskId, event);
    });
  }

  // Resolves with the event, or null after `timeoutMs` or when `signal` aborts.
  wait(
    taskId: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): { done: Promise<TaskCompleted | null>; cancel(): void } {
    let waiter!: Waiter;
    const done = new Promise<TaskCompleted | null>((resolve) => {
      waiter = { resolve, timer: setTimeout(() => this.remove(taskId, waiter, null), timeoutMs) };
    });
    const list = this.waiters.get(taskId) ?? [];
    list.push(waiter);
    this.waiters.set(taskId, list);
    signal?.addEventListener('abort', () => this.remove(taskId, waiter, null), { once: true });
    return { done, cancel: () => this.remove(taskId, waiter, null) };
  }

  get waiting(): number {
    let n = 0;
    for (const list of this.waiters.values()) n += list.length;
    return n;
  }

  async stop(): Promise<void> {
    for (const [taskId] of this.waiters) this.settle(taskId, null);
    await this.sub?.unsubscribe();
    this.sub = null;
  }

  private settle(taskId: string, event: TaskCompleted | null): void {
    const list = this.waiters.get(taskId);
    if (!list) return;
    this.waiters.delete(taskId);
    for (const w of list) {
      clearTimeout(w.timer);
      w.resolve(event);
    }
  }

  private remove(taskId: string, waiter: Waiter, event: TaskCompleted | null): void {
    const list = this.waiters.get(taskId);
    if (!list) return;
    const i = list.indexOf(waiter);
    if (i < 0) return;
    list.splice(i, 1);
    if (list.length === 0) this.waiters.delete(taskId);
    clearTimeout(waiter.timer);
    waiter.resolve(event);
  }
}
