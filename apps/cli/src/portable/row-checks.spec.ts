import { describe, expect, it } from '@jest/globals';
import { fieldProblem } from './row-checks.js';

const column = (type: string, required = false) => ({ name: 'c', type, required });

describe('fieldProblem', () => {
  it('accepts what the export writes for each column type', () => {
    expect(fieldProblem(column('uuid'), '0a1b2c3d-0000-4000-8000-000000000001')).toBeNull();
    expect(fieldProblem(column('numeric(20,10)'), '0.0001500000')).toBeNull();
    expect(fieldProblem(column('double precision'), 'NaN')).toBeNull();
    expect(fieldProblem(column('double precision'), 0.1)).toBeNull();
    expect(fieldProblem(column('timestamp with time zone'), '2026-01-02T03:04:05.123456+00:00')).toBeNull();
    expect(fieldProblem(column('jsonb'), { any: ['thing'] })).toBeNull();
    expect(fieldProblem(column('text'), null)).toBeNull();
  });

  it('says what it expected and what it got', () => {
    expect(fieldProblem(column('text', true), null)).toBe('is null, but this column needs a value');
    expect(fieldProblem(column('uuid'), 'run-1')).toBe('expected a uuid, got "run-1"');
    expect(fieldProblem(column('integer'), 1.5)).toBe('expected an integer, got 1.5');
    expect(fieldProblem(column('boolean'), 'yes')).toBe('expected true or false, got "yes"');
    expect(fieldProblem(column('numeric(20,10)'), '1,5')).toBe('expected a decimal number, got "1,5"');
    expect(fieldProblem(column('timestamp with time zone'), 'soon')).toBe('expected a timestamp, got "soon"');
    expect(fieldProblem(column('text'), 'x'.repeat(50) as unknown)).toBeNull();
    expect(fieldProblem(column('integer'), 'x'.repeat(50))).toBe(
      `expected an integer, got "${'x'.repeat(36)}...`,
    );
  });
});
