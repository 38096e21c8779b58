// Versioned NATS subject and JetStream stream names. Apps use these, never string literals, so a
// v2 of the contracts can run beside v1 on the same server.

export const STAGES = ['ingest', 'retrieve', 'summarize', 'verify', 'score', 'aggregate'] as const;
export type Stage = (typeof STAGES)[number];

export const SUBJECT_ROOT = 'precis.v1';
export const DEAD_LETTER_STREAM = 'PRECIS_V1_DEAD';
/** Every event subject; for a subscription that wants them all. */
export const ALL_EVENTS_SUBJECT = `${SUBJECT_ROOT}.events.>`;

/** Names of the events the contracts define (payloads: TaskCompleted, RunProgress). */
export const EVENTS = {
  taskCompleted: 'task-completed',
  runProgress: 'run-progress',
} as const;

export const HEADER_RUN_ID = 'Precis-Run-Id';
export const HEADER_TASK_ID = 'Precis-Task-Id';

// Dot-separated tokens of letters, digits, '-' and '_': no spaces or wildcards, which would
// silently widen a publish or a subscription.
const NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

export function isStage(value: unknown): value is Stage {
  return typeof value === 'string' && (STAGES as readonly string[]).includes(value);
}

export function assertStage(value: unknown, where = 'stage'): Stage {
  if (!isStage(value)) {
    throw new Error(`${where}: unknown stage ${JSON.stringify(value)}; expected one of ${STAGES.join(', ')}`);
  }
  return value;
}

function checkName(kind: string, name: string): string {
  if (!NAME.test(name)) {
    throw new Error(
      `${kind} name ${JSON.stringify(name)} is not a valid subject part: use dot-separated tokens of letters, digits, '-' or '_' (no spaces or wildcards)`,
    );
  }
  return name;
}

/** Work-queue subject of a stage, e.g. `precis.v1.verify.tasks`. */
export function taskSubject(stage: Stage): string {
  return `${SUBJECT_ROOT}.${assertStage(stage)}.tasks`;
}

/** JetStream stream holding a stage's work queue, e.g. `PRECIS_V1_VERIFY_TASKS`. */
export function taskStream(stage: Stage): string {
  return `PRECIS_V1_${assertStage(stage).toUpperCase()}_TASKS`;
}

/** Where a stage's messages go after their last delivery attempt, e.g. `precis.v1.verify.dead`. */
export function deadLetterSubject(stage: Stage): string {
  return `${SUBJECT_ROOT}.${assertStage(stage)}.dead`;
}

/** Event subject, e.g. `precis.v1.events.task-completed`. */
export function eventSubject(name: string): string {
  return `${SUBJECT_ROOT}.events.${checkName('event', name)}`;
}

/** Request/reply subject, e.g. `precis.v1.rpc.summarizer.my-plugin`. */
export function requestSubject(name: string): string {
  return `${SUBJECT_ROOT}.rpc.${checkName('request', name)}`;
}
