import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { redactUrl, resolveDatabaseUrl, resolvePgliteDir, resolvePreparedStatements } from './env.js';

describe('resolveDatabaseUrl', () => {
  it('returns DATABASE_URL for PostgreSQL and undefined when unset or blank', () => {
    expect(resolveDatabaseUrl({ DATABASE_URL: 'postgres://u@h:5432/db' })).toBe('postgres://u@h:5432/db');
    expect(resolveDatabaseUrl({ DATABASE_URL: ' postgresql://h/db ' })).toBe('postgresql://h/db');
    expect(resolveDatabaseUrl({})).toBeUndefined();
    expect(resolveDatabaseUrl({ DATABASE_URL: '  ' })).toBeUndefined();
  });

  it('names the variable and never echoes a password when the URL is wrong', () => {
    expect(() => resolveDatabaseUrl({ DATABASE_URL: 'mysql://u:hunter2@h/db' })).toThrow(
      /^DATABASE_URL must start with postgres:\/\/ or postgresql:\/\/ \(got mysql:\/\/\.\.\.\)/,
    );
    expect(() => resolveDatabaseUrl({ DATABASE_URL: 'not a url hunter2' })).toThrow(
      /DATABASE_URL is not a valid URL/,
    );
    try {
      resolveDatabaseUrl({ DATABASE_URL: 'not a url hunter2' });
    } catch (err) {
      expect((err as Error).message).not.toContain('hunter2');
    }
  });
});

describe('resolvePreparedStatements', () => {
  it('is true unless DATABASE_PREPARED_STATEMENTS says false, and names the variable otherwise', () => {
    const prepared = (v?: string) => resolvePreparedStatements({ DATABASE_PREPARED_STATEMENTS: v });
    expect([undefined, ' TRUE ', '1', 'yes', 'On'].map(prepared)).toEqual([true, true, true, true, true]);
    expect(['False', '0', 'no', 'OFF'].map(prepared)).toEqual([false, false, false, false]);
    expect(() => prepared('maybe')).toThrow(
      'DATABASE_PREPARED_STATEMENTS must be one of true/1/yes/on/false/0/no/off (got "maybe"): set false behind a connection pooler in transaction mode that does not keep prepared statements',
    );
  });
});

describe('resolvePgliteDir', () => {
  it('uses <PRECIS_HOME>/db, else <cwd>/.precis/db when no parent has a .precis', () => {
    expect(resolvePgliteDir({ PRECIS_HOME: '/srv/precis' }, '/work')).toBe('/srv/precis/db');
    expect(resolvePgliteDir({ PRECIS_HOME: 'rel' }, '/work')).toBe('/work/rel/db');
    expect(resolvePgliteDir({}, '/no-such-root/work')).toBe(join('/no-such-root/work', '.precis', 'db'));
  });
});

describe('redactUrl', () => {
  it('hides the password', () => {
    expect(redactUrl('postgres://u:secret@h:5432/db')).toBe('postgres://u:***@h:5432/db');
    expect(redactUrl('postgres://u@h/db')).toBe('postgres://u@h/db');
  });
});
