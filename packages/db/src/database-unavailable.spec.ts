import { describe, expect, it } from '@jest/globals';
import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailableError } from './database-unavailable.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailableError', () => {
  it.each([
    ['connection refused', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['connection reset', withCode('read ECONNRESET', 'ECONNRESET')],
    ['pg: terminated', new Error('Connection terminated unexpectedly')],
    ['pool timeout', new Error('timeout exceeded when trying to connect')],
    ['admin shutdown', withCode('terminating connection due to administrator command', '57P01')],
    ['starting up', withCode('the database system is starting up', '57P03')],
    ['class 08', withCode('connection failure', '08006')],
    ['too many connections', withCode('sorry, too many clients already', '53300')],
    ['wrapped in cause', new Error('claim failed', { cause: withCode('x', 'ECONNREFUSED') })],
    ['aggregate', new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')])],
    [
      'TypeORM QueryFailedError',
      new QueryFailedError(
        'SELECT 1',
        [],
        withCode('terminating connection due to administrator command', '57P01'),
      ),
    ],
  ])('%s: infrastructure', (_name, err) => {
    expect(isDatabaseUnavailableError(err)).toBe(true);
  });

  it.each([
    ['syntax error', withCode('syntax error at or near "SELCT"', '42601')],
    ['unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['deadlock', withCode('deadlock detected', '40P01')],
    ['plain error', new Error('judge returned no verdict')],
    ['not an error', 'ECONNREFUSED'],
    ['null', null],
  ])('%s: not infrastructure', (_name, err) => {
    expect(isDatabaseUnavailableError(err)).toBe(false);
  });
});
