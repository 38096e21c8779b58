import { describe, expect, it } from '@jest/globals';
import {
  ConflictError,
  DeadlineError,
  type DomainError,
  InternalError,
  InvalidInputError,
  LeaderboardError,
  LimitError,
  NotFoundError,
  PermissionError,
  PreconditionError,
  RunStateError,
  UnavailableError,
} from '@precis/engine';
import { MetaInputError } from '@precis/meta';
import { MetricsRegistry, type ServiceLogger } from '@precis/service';
import { toGrpcException } from './domain-status.js';
import { observeCall } from './observe-call.js';

// Each domain error, the gRPC status code callers (the CLI's remote commands) rely on.
const CASES: [DomainError, number][] = [
  [new InvalidInputError('run_id is empty', { field: 'run_id' }), 3],
  [new DeadlineError('the import did not finish within INGEST_TIMEOUT_MS=10 ms'), 4],
  [new NotFoundError('no run ffffffff'), 5],
  [new ConflictError('a key named ci already exists'), 6],
  [new PermissionError('data.json: outside the directory this server reads files from'), 7],
  [new LimitError('this gateway already holds 4 of 4 waiting imports'), 8],
  [new PreconditionError('model "m" failed its preflight (no run was created or resumed)'), 9],
  [new InternalError('ImportDataset failed: internal error in ingest task t (reference 0a1b2c3d)'), 13],
  [new UnavailableError('the gateway is shutting down; retry on another replica'), 14],
  [new LeaderboardError('give at least one run (--runs a,b,...)'), 3],
  [new MetaInputError('unknown metric', { field: 'metric' }), 3],
  [
    new RunStateError(
      'run r is already completed; only a pending, running or interrupted run can be cancelled',
    ),
    9,
  ],
];

describe('domain errors at the gRPC edge', () => {
  it.each(CASES)('%s answers status %i with its message unchanged', (err, code) => {
    expect(toGrpcException(err).getError()).toEqual({ code, message: err.message });
  });

  it('observeCall answers a use case domain error with its status, logged as a warning', async () => {
    const warned: Record<string, unknown>[] = [];
    const errors: unknown[] = [];
    const logger = {
      info: () => {},
      warn: (fields: Record<string, unknown>) => warned.push(fields),
      error: (fields: unknown) => errors.push(fields),
    } as unknown as ServiceLogger;
    const got = await observeCall({ metrics: new MetricsRegistry(), logger }, 'GetRun', async () => {
      throw new NotFoundError('no run with id or name "nope"');
    }).catch((e: { getError(): unknown }) => e.getError());
    expect(got).toEqual({ code: 5, message: 'no run with id or name "nope"' });
    expect(warned).toEqual([expect.objectContaining({ method: 'GetRun', code: 'NOT_FOUND' })]);
    expect(errors).toEqual([]);
  });

  it('keeps where invalid input is, and what it is called', () => {
    const err = new MetaInputError('not valid JSON', { file: 'ratings.jsonl', line: 3 });
    expect(err).toBeInstanceOf(InvalidInputError);
    expect(err.name).toBe('MetaInputError');
    expect(err.message).toBe('ratings.jsonl, line 3: not valid JSON');
    expect(err.location).toEqual({ file: 'ratings.jsonl', line: 3 });
  });
});
