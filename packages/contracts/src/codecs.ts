import { Task, TaskCompleted } from './gen/precis/v1/task.js';
import { assertStage, type Stage } from './subjects.js';

export const JSON_MEDIA_TYPE = 'application/json';

/** Media type of a payload holding one protobuf message, e.g. `precis.v1.SummarizeRequest`. */
export function protobufMediaType(messageType: string): string {
  return `application/x-protobuf; messageType=${messageType}`;
}

export class ContractDecodeError extends Error {
  constructor(what: string, detail: string) {
    super(`cannot decode ${what}: ${detail}`);
    this.name = 'ContractDecodeError';
  }
}

export interface Codec<T> {
  encode(value: T): Uint8Array;
  decode(data: Uint8Array): T;
}

// `fatal` so that bytes that are not UTF-8 fail loudly instead of decoding to U+FFFD.
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

/** UTF-8 JSON. The caller vouches for the decoded shape (validate at the edge if it came from outside). */
export function jsonCodec<T>(what = 'JSON payload'): Codec<T> {
  return {
    encode(value: T): Uint8Array {
      const text = JSON.stringify(value);
      if (text === undefined) throw new TypeError(`cannot encode ${what}: value is not JSON-serializable`);
      return utf8Encoder.encode(text);
    },
    decode(data: Uint8Array): T {
      let text: string;
      try {
        text = utf8Decoder.decode(data);
      } catch {
        throw new ContractDecodeError(what, 'bytes are not valid UTF-8');
      }
      try {
        return JSON.parse(text) as T;
      } catch (err) {
        throw new ContractDecodeError(what, (err as Error).message);
      }
    },
  };
}

/** What ts-proto generates for each message: binary encode/decode. */
export interface BinaryMessageFns<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(input: Uint8Array): T;
}

/** Binary protobuf codec for one generated message type, e.g. `protobufCodec(TaskCompleted, 'precis.v1.TaskCompleted')`. */
export function protobufCodec<T>(fns: BinaryMessageFns<T>, what: string): Codec<T> {
  return {
    encode: (value: T) => fns.encode(value).finish(),
    decode(data: Uint8Array): T {
      try {
        return fns.decode(data);
      } catch (err) {
        throw new ContractDecodeError(what, (err as Error).message);
      }
    },
  };
}

const taskCodec = protobufCodec(Task, 'precis.v1.Task');

export function encodeTask(task: Task): Uint8Array {
  return taskCodec.encode(task);
}

/** Decodes a Task envelope and checks what every consumer relies on (a task id and a known stage). */
export function decodeTask(data: Uint8Array): Task {
  const task = taskCodec.decode(data);
  if (!task.taskId) throw new ContractDecodeError('precis.v1.Task', 'task_id is empty');
  try {
    assertStage(task.stage, `task ${task.taskId}: stage`);
  } catch (err) {
    throw new ContractDecodeError('precis.v1.Task', (err as Error).message);
  }
  return task;
}

const taskCompletedCodec = protobufCodec(TaskCompleted, 'precis.v1.TaskCompleted');

/** The event every stage worker publishes once a task reached a final state (or stopped its run). */
export function encodeTaskCompleted(event: TaskCompleted): Uint8Array {
  return taskCompletedCodec.encode(event);
}

export function decodeTaskCompleted(data: Uint8Array): TaskCompleted {
  const event = taskCompletedCodec.decode(data);
  if (!event.taskId) throw new ContractDecodeError('precis.v1.TaskCompleted', 'task_id is empty');
  return event;
}

export interface JsonTaskInit<P> {
  taskId: string;
  runId: string;
  stage: Stage;
  kind: string;
  payload: P;
  attempt?: number;
  enqueueTime?: Date;
}

/** A Task envelope whose payload is UTF-8 JSON. */
export function createJsonTask<P>(init: JsonTaskInit<P>): Task {
  return Task.create({
    taskId: init.taskId,
    runId: init.runId,
    stage: assertStage(init.stage),
    kind: init.kind,
    payloadType: JSON_MEDIA_TYPE,
    payload: Buffer.from(jsonCodec<P>().encode(init.payload)),
    attempt: init.attempt ?? 1,
    enqueueTime: init.enqueueTime,
  });
}

/** The JSON payload of a Task envelope; fails if the payload is of another media type. */
export function taskJsonPayload<P>(task: Task): P {
  if (task.payloadType !== JSON_MEDIA_TYPE) {
    throw new ContractDecodeError(
      `payload of task ${task.taskId}`,
      `payload_type is ${JSON.stringify(task.payloadType)}, expected ${JSON.stringify(JSON_MEDIA_TYPE)}`,
    );
  }
  return jsonCodec<P>(`payload of task ${task.taskId}`).decode(task.payload);
}
