import { describe, expect, it } from '@jest/globals';
import { subjectMatches } from './in-process-bus.js';

describe('subjectMatches (NATS wildcard rules)', () => {
  it.each([
    ['precis.v1.events.a', 'precis.v1.events.a', true],
    ['precis.v1.events.*', 'precis.v1.events.a', true],
    ['precis.v1.events.*', 'precis.v1.events.a.b', false],
    ['precis.v1.events.>', 'precis.v1.events.a.b', true],
    ['precis.v1.events.>', 'precis.v1.events', false],
    ['precis.v1.*.dead', 'precis.v1.verify.dead', true],
    ['precis.v1.events.a', 'precis.v1.events.b', false],
  ])('%s vs %s -> %s', (pattern, subject, expected) => {
    expect(subjectMatches(pattern, subject)).toBe(expected);
  });
});
