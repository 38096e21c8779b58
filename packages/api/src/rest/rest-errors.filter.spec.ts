import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import type { ArgumentsHost } from '@nestjs/common';
import {
  ConflictError,
  DeadlineError,
  DOMAIN_ERROR_KINDS,
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
import type { ServiceLogger } from '@precis/service';
import { HTTP_STATUS, RestErrorsFilter } from './rest-errors.filter.js';

// What a REST caller receives for an error thrown under the filter.
function answer(err: unknown): { status: number; body: { error: string; requestId: string } } {
  const req = { method: 'GET', url: '/api/v1/runs/x', headers: { 'x-request-id': 'req-1' } };
  let got = { status: 0, body: { error: '', requestId: '' } };
  const res = {
    headersSent: false,
    status: (status: number) => ({
      json: (body: { error: string; requestId: string }) => {
        got = { status, body };
      },
    }),
  };
  const host = {
    switchToHttp: () => ({ getRequest: () => req as unknown as IncomingMessage, getResponse: () => res }),
  } as unknown as ArgumentsHost;
  const logger = { error: () => {} } as unknown as ServiceLogger;
  new RestErrorsFilter(logger).catch(err, host);
  return got;
}

// Each domain error, the HTTP status REST callers rely on (the same as before domain errors).
const CASES: [DomainError, number][] = [
  [new InvalidInputError('page_size: must be >= 0, got -1', { field: 'page_size' }), 400],
  [new NotFoundError('no run ffffffff'), 404],
  [new ConflictError('a key named ci already exists'), 409],
  [new PreconditionError('model "m" failed its preflight (no run was created or resumed)'), 409],
  [new PermissionError('data.json: outside the directory this server reads files from'), 403],
  [new LimitError('this gateway already holds 4 of 4 waiting imports'), 429],
  [new UnavailableError('the gateway is shutting down; retry on another replica'), 503],
  [new DeadlineError('the import did not finish within INGEST_TIMEOUT_MS=10 ms'), 504],
  [new LeaderboardError('give at least one run (--runs a,b,...)'), 400],
  [new RunStateError('run r is still running; cancel it first'), 409],
];

describe('domain errors at the REST edge', () => {
  it('gives every kind an HTTP status', () => {
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...DOMAIN_ERROR_KINDS].sort());
  });

  it.each(CASES)('%s answers HTTP %i with its message', (err, status) => {
    const got = answer(err);
    expect(got.status).toBe(status);
    expect(got.body.error).toBe(err.message);
  });

  it('answers an internal error 500 without its text', () => {
    const got = answer(new InternalError('ingest task t vanished from the tasks table'));
    expect(got.status).toBe(500);
    expect(got.body.error).toMatch(
      /^internal error \(request id \S+; the details are in the gateway's log\)$/,
    );
  });
});
