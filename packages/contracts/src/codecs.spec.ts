import { describe, expect, it } from '@jest/globals';
import {
  ContractDecodeError,
  createJsonTask,
  decodeTask,
  decodeTaskCompleted,
  encodeTask,
  encodeTaskCompleted,
  JSON_MEDIA_TYPE,
  jsonCodec,
  protobufCodec,
  protobufMediaType,
  taskJsonPayload,
} from './codecs.js';
import { RunStatus, TaskStatus } from './gen/precis/v1/run.js';
import { SummarizeRequest, SummaryRole } from './gen/precis/v1/summarizer.js';
import { RunProgress, Task, TaskCompleted } from './gen/precis/v1/task.js';

describe('jsonCodec', () => {
  it('round-trips JSON values as UTF-8', () => {
    const codec = jsonCodec<{ id: string; n: number[]; nested: { ok: boolean; s: string } }>();
    const value = { id: 't-1', n: [1, 2.5, -3], nested: { ok: true, s: 'naïve — 東京' } };
    const bytes = codec.encode(value);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(codec.decode(bytes)).toEqual(value);
  });

  it('names what failed to decode', () => {
    const codec = jsonCodec<unknown>('payload of task t-9');
    expect(() => codec.decode(new TextEncoder().encode('{"a":'))).toThrow(ContractDecodeError);
    expect(() => codec.decode(new TextEncoder().encode('{"a":'))).toThrow(
      /^cannot decode payload of task t-9: /,
    );
    expect(() => codec.decode(Uint8Array.from([0xff, 0xfe]))).toThrow('bytes are not valid UTF-8');
  });

  it('refuses values JSON cannot represent', () => {
    expect(() => jsonCodec<() => void>().encode(() => {})).toThrow(/not JSON-serializable/);
  });
});

describe('Task envelope', () => {
  const enqueueTime = new Date('2026-01-02T03:04:05.678Z');

  it('round-trips through protobuf bytes', () => {
    const task = Task.create({
      taskId: 'run-1:summarize:doc-3:chunk-7',
      runId: 'run-1',
      stage: 'summarize',
      kind: 'summary-step',
      payloadType: protobufMediaType('precis.v1.SummarizeRequest'),
      payload: Buffer.from(
        SummarizeRequest.encode(
          SummarizeRequest.create({
            taskId: 'run-1:summarize:doc-3:chunk-7',
            role: SummaryRole.SUMMARY_ROLE_MERGE,
            texts: ['first', 'second'],
            priorContext: 'before',
            budgetWords: 900,
            params: { temperature: '0.5' },
          }),
        ).finish(),
      ),
      attempt: 2,
      enqueueTime,
    });
    const bytes = encodeTask(task);
    expect(bytes).toBeInstanceOf(Uint8Array);
    const back = decodeTask(bytes);
    expect(back).toEqual(task);
    const inner = SummarizeRequest.decode(back.payload);
    expect(inner.role).toBe(SummaryRole.SUMMARY_ROLE_MERGE);
    expect(inner.texts).toEqual(['first', 'second']);
    expect(inner.params).toEqual({ temperature: '0.5' });
    expect(inner.budgetWords).toBe(900);
  });

  it('carries a JSON payload', () => {
    const payload = { type: 'score-run', systems: ['a', 'b'], weight: 0.25 };
    const task = createJsonTask({
      taskId: 't-2',
      runId: 'r-2',
      stage: 'score',
      kind: 'score-run',
      payload,
      enqueueTime,
    });
    expect(task.payloadType).toBe(JSON_MEDIA_TYPE);
    expect(task.attempt).toBe(1);
    const back = decodeTask(encodeTask(task));
    expect(back.enqueueTime).toEqual(enqueueTime);
    expect(taskJsonPayload<typeof payload>(back)).toEqual(payload);
  });

  it('refuses to read a protobuf payload as JSON', () => {
    const task = Task.create({
      taskId: 't-3',
      stage: 'verify',
      payloadType: protobufMediaType('precis.v1.Judgment'),
    });
    expect(() => taskJsonPayload(task)).toThrow(
      'cannot decode payload of task t-3: payload_type is "application/x-protobuf; messageType=precis.v1.Judgment", expected "application/json"',
    );
  });

  it('rejects envelopes without a task id or with an unknown stage', () => {
    expect(() => decodeTask(encodeTask(Task.create({ stage: 'verify' })))).toThrow(
      'cannot decode precis.v1.Task: task_id is empty',
    );
    expect(() => decodeTask(encodeTask(Task.create({ taskId: 't-4', stage: 'judge' })))).toThrow(
      /cannot decode precis\.v1\.Task: task t-4: stage: unknown stage "judge"/,
    );
    expect(() =>
      createJsonTask({ taskId: 't', runId: 'r', stage: 'nope' as 'score', kind: 'k', payload: {} }),
    ).toThrow(/unknown stage "nope"/);
  });

  it('reports bytes that are not a protobuf message', () => {
    expect(() => decodeTask(Uint8Array.from([0x0a, 0xff, 0xff, 0xff]))).toThrow(
      /^cannot decode precis\.v1\.Task: /,
    );
  });
});

describe('protobufCodec for events', () => {
  it('round-trips TaskCompleted and RunProgress (int64 as number)', () => {
    const completed = protobufCodec(TaskCompleted, 'precis.v1.TaskCompleted');
    const ev = TaskCompleted.create({
      taskId: 't-5',
      runId: 'r-5',
      stage: 'verify',
      kind: 'booookscore-batch',
      status: TaskStatus.TASK_STATUS_FAILED,
      error: 'unparseable judge output after 3 attempts',
      finishTime: new Date('2026-03-01T00:00:00Z'),
    });
    expect(completed.decode(completed.encode(ev))).toEqual(ev);
    expect(decodeTaskCompleted(encodeTaskCompleted(ev))).toEqual(ev);
    expect(() => decodeTaskCompleted(encodeTaskCompleted(TaskCompleted.create({ runId: 'r' })))).toThrow(
      'cannot decode precis.v1.TaskCompleted: task_id is empty',
    );

    const progress = protobufCodec(RunProgress, 'precis.v1.RunProgress');
    const p = RunProgress.create({
      runId: 'r-5',
      status: RunStatus.RUN_STATUS_RUNNING,
      taskCounts: { done: 12, queued: 3_000_000_000 },
      totalTasks: 3_000_000_012,
      finishedTasks: 12,
      costUsd: 0.0125,
      stage: 'verify',
    });
    const back = progress.decode(progress.encode(p));
    expect(back).toEqual(p);
    expect(typeof back.totalTasks).toBe('number');
  });
});
