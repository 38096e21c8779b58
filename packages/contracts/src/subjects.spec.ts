import { describe, expect, it } from '@jest/globals';
import {
  ALL_EVENTS_SUBJECT,
  assertStage,
  DEAD_LETTER_STREAM,
  deadLetterSubject,
  EVENTS,
  eventSubject,
  HEADER_RUN_ID,
  HEADER_TASK_ID,
  isStage,
  requestSubject,
  STAGES,
  type Stage,
  taskStream,
  taskSubject,
} from './subjects.js';

describe('subjects', () => {
  it('lists the stages in pipeline order', () => {
    expect(STAGES).toEqual(['ingest', 'retrieve', 'summarize', 'verify', 'score', 'aggregate']);
  });

  it('names work queues, streams and dead letters per stage', () => {
    expect(taskSubject('verify')).toBe('precis.v1.verify.tasks');
    expect(taskStream('verify')).toBe('PRECIS_V1_VERIFY_TASKS');
    expect(deadLetterSubject('summarize')).toBe('precis.v1.summarize.dead');
    expect(DEAD_LETTER_STREAM).toBe('PRECIS_V1_DEAD');
    expect(STAGES.map(taskStream)).toEqual([
      'PRECIS_V1_INGEST_TASKS',
      'PRECIS_V1_RETRIEVE_TASKS',
      'PRECIS_V1_SUMMARIZE_TASKS',
      'PRECIS_V1_VERIFY_TASKS',
      'PRECIS_V1_SCORE_TASKS',
      'PRECIS_V1_AGGREGATE_TASKS',
    ]);
  });

  it('keeps every stream name distinct and JetStream-safe', () => {
    const names = [...STAGES.map(taskStream), DEAD_LETTER_STREAM];
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[A-Z0-9_]+$/);
  });

  it('names events and request subjects', () => {
    expect(eventSubject(EVENTS.taskCompleted)).toBe('precis.v1.events.task-completed');
    expect(eventSubject(EVENTS.runProgress)).toBe('precis.v1.events.run-progress');
    expect(requestSubject('summarizer.my-plugin')).toBe('precis.v1.rpc.summarizer.my-plugin');
    expect(ALL_EVENTS_SUBJECT).toBe('precis.v1.events.>');
  });

  it('rejects names that would widen a subject', () => {
    for (const bad of ['', 'a b', '*', 'x.>', 'a..b', '.a', 'a.']) {
      expect(() => eventSubject(bad)).toThrow(/not a valid subject part/);
      expect(() => requestSubject(bad)).toThrow(/not a valid subject part/);
    }
  });

  it('rejects unknown stages with the list of known ones', () => {
    expect(isStage('verify')).toBe(true);
    expect(isStage('judge')).toBe(false);
    expect(isStage(3)).toBe(false);
    expect(() => taskSubject('judge' as Stage)).toThrow(
      'stage: unknown stage "judge"; expected one of ingest, retrieve, summarize, verify, score, aggregate',
    );
    expect(() => assertStage('x', 'spec.stage')).toThrow(/^spec\.stage: unknown stage "x"/);
  });

  it('uses the documented header names', () => {
    expect(HEADER_RUN_ID).toBe('Precis-Run-Id');
    expect(HEADER_TASK_ID).toBe('Precis-Task-Id');
  });
});
