import {
  AckPolicy,
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import {
  DEAD_LETTER_STREAM,
  deadLetterSubject,
  type Stage,
  taskStream,
  taskSubject,
} from '@precis/contracts';

// One durable pull consumer per stage stream; every worker process of the stage binds to it.
export const WORKERS_DURABLE = 'workers';
const DEFAULT_DUPLICATE_WINDOW_MS = 120_000;
const DEAD_LETTER_MAX_AGE_MS = 14 * 24 * 3600 * 1000;

/** Subject and stream names for one bus, with the optional isolation prefix applied. */
export class NatsNames {
  private readonly subjectPrefix: string;
  private readonly streamPrefix: string;

  constructor(prefix?: string) {
    if (prefix !== undefined && !/^[A-Za-z0-9_-]+$/.test(prefix)) {
      throw new RangeError(`createNatsBus: prefix "${prefix}" may only contain letters, digits, "_" and "-"`);
    }
    this.subjectPrefix = prefix ? `${prefix}.` : '';
    this.streamPrefix = prefix ? `${prefix.replace(/-/g, '_').toUpperCase()}_` : '';
  }

  subject(name: string): string {
    return this.subjectPrefix + name;
  }
  taskSubject(stage: Stage): string {
    return this.subject(taskSubject(stage));
  }
  taskStream(stage: Stage): string {
    return this.streamPrefix + taskStream(stage);
  }
  deadLetterSubject(stage: Stage): string {
    return this.subject(deadLetterSubject(stage));
  }
  deadLetterStream(): string {
    return this.streamPrefix + DEAD_LETTER_STREAM;
  }
  /** Wildcard covering every stage's dead-letter subject. */
  deadLetterWildcard(): string {
    return this.subject(deadLetterSubject('ingest').replace('.ingest.', '.*.'));
  }
  /** Every stream this bus may have created (used by tests to clean up). */
  allStreams(stages: readonly Stage[]): string[] {
    return [...stages.map((s) => this.taskStream(s)), this.deadLetterStream()];
  }
}

function hasApiCode(err: unknown, code: number): boolean {
  return err instanceof JetStreamApiError && err.code === code;
}

// JetStream's "subjects overlap with an existing stream": another stream stores the subject.
const SUBJECTS_OVERLAP = 10065;

/**
 * Creates a stream, or updates an existing one whose subjects or dedupe window differ (an
 * operator may have re-created it by hand); safe when several processes race.
 */
async function ensureStream(
  jsm: JetStreamManager,
  name: string,
  create: Parameters<JetStreamManager['streams']['add']>[0],
  duplicateWindowNs: number,
): Promise<void> {
  const subjects = create.subjects ?? [];
  try {
    const info = await jsm.streams.info(name);
    if (info.config.retention !== create.retention) {
      throw new Error(
        `stream ${name} exists with ${info.config.retention} retention instead of ${create.retention}: ` +
          'delete it so that it is declared again',
      );
    }
    const have = info.config.subjects ?? [];
    const sameSubjects = have.length === subjects.length && subjects.every((s) => have.includes(s));
    if (info.config.duplicate_window !== duplicateWindowNs || !sameSubjects) {
      await jsm.streams.update(name, { ...info.config, subjects, duplicate_window: duplicateWindowNs });
    }
    return;
  } catch (err) {
    if (!hasApiCode(err, JetStreamApiCodes.StreamNotFound)) throw explainOverlap(err, name, subjects);
  }
  try {
    await jsm.streams.add(create);
  } catch (err) {
    // Another process created it between our info and add: fine if it now exists.
    await jsm.streams.info(name).catch(() => {
      throw explainOverlap(err, name, subjects);
    });
  }
}

function explainOverlap(err: unknown, name: string, subjects: string[]): unknown {
  if (!hasApiCode(err, SUBJECTS_OVERLAP)) return err;
  return new Error(
    `stream ${name} cannot be declared: another stream already stores ${subjects.map((s) => `"${s}"`).join(', ')} ` +
      '(subjects overlap with an existing stream); remove that stream or that subject from it',
    { cause: err },
  );
}

export async function ensureStageStreams(
  jsm: JetStreamManager,
  names: NatsNames,
  stage: Stage,
  duplicateWindowMs = DEFAULT_DUPLICATE_WINDOW_MS,
): Promise<void> {
  const dupNs = nanos(duplicateWindowMs);
  await ensureStream(
    jsm,
    names.taskStream(stage),
    {
      name: names.taskStream(stage),
      subjects: [names.taskSubject(stage)],
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      duplicate_window: dupNs,
    },
    dupNs,
  );
  await ensureStream(
    jsm,
    names.deadLetterStream(),
    {
      name: names.deadLetterStream(),
      subjects: [names.deadLetterWildcard()],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      max_age: nanos(DEAD_LETTER_MAX_AGE_MS),
      duplicate_window: dupNs,
    },
    dupNs,
  );
}

export interface WorkersConsumerConfig {
  ackWaitMs: number;
  maxDeliver: number;
  maxAckPending: number;
}

/** Declares (or reconfigures) the stage's durable pull consumer. */
export async function ensureWorkersConsumer(
  jsm: JetStreamManager,
  names: NatsNames,
  stage: Stage,
  cfg: WorkersConsumerConfig,
): Promise<void> {
  const stream = names.taskStream(stage);
  const wanted = {
    ack_wait: nanos(cfg.ackWaitMs),
    max_deliver: cfg.maxDeliver,
    max_ack_pending: cfg.maxAckPending,
  };
  try {
    const info = await jsm.consumers.info(stream, WORKERS_DURABLE);
    const c = info.config;
    if (
      c.ack_wait !== wanted.ack_wait ||
      c.max_deliver !== wanted.max_deliver ||
      c.max_ack_pending !== wanted.max_ack_pending
    ) {
      await jsm.consumers.update(stream, WORKERS_DURABLE, wanted);
    }
    return;
  } catch (err) {
    if (!hasApiCode(err, JetStreamApiCodes.ConsumerNotFound)) throw err;
  }
  await jsm.consumers.add(stream, {
    durable_name: WORKERS_DURABLE,
    ack_policy: AckPolicy.Explicit,
    filter_subject: names.taskSubject(stage),
    ...wanted,
  });
}
