import { describe, expect, it } from '@jest/globals';
import { NatsNames } from './nats-queues.js';

describe('NatsNames', () => {
  it('uses the contract names as they are without a prefix', () => {
    const n = new NatsNames();
    expect(n.taskSubject('verify')).toBe('precis.v1.verify.tasks');
    expect(n.taskStream('verify')).toBe('PRECIS_V1_VERIFY_TASKS');
    expect(n.deadLetterSubject('verify')).toBe('precis.v1.verify.dead');
    expect(n.deadLetterWildcard()).toBe('precis.v1.*.dead');
    expect(n.deadLetterStream()).toBe('PRECIS_V1_DEAD');
  });

  it('isolates subjects and streams under a prefix', () => {
    const n = new NatsNames('test-a1');
    expect(n.taskSubject('score')).toBe('test-a1.precis.v1.score.tasks');
    expect(n.taskStream('score')).toBe('TEST_A1_PRECIS_V1_SCORE_TASKS');
    expect(n.subject('precis.v1.rpc.x')).toBe('test-a1.precis.v1.rpc.x');
    expect(n.allStreams(['ingest'])).toEqual(['TEST_A1_PRECIS_V1_INGEST_TASKS', 'TEST_A1_PRECIS_V1_DEAD']);
  });

  it('rejects a prefix that would change subject structure', () => {
    expect(() => new NatsNames('a.b')).toThrow(/prefix "a.b" may only contain/);
    expect(() => new NatsNames('a*')).toThrow(RangeError);
  });
});
