import { describe, expect, it } from '@jest/globals';
import { embeddedDatabaseDir } from './prestart.js';

describe('embeddedDatabaseDir', () => {
  const argv = (...args: string[]) => ['node', 'precis', ...args];
  const env = { PRECIS_HOME: 'data' };

  it('names PRECIS_HOME/db (or ./.precis/db) for a command that opens the embedded database', () => {
    expect(embeddedDatabaseDir(argv('run', 'spec.yaml'), env, '/w')).toBe('/w/data/db');
    expect(embeddedDatabaseDir(argv('datasets', 'ls', '--json'), {}, '/w')).toBe('/w/.precis/db');
    expect(embeddedDatabaseDir(argv('runs', 'show', 'abc'), env, '/w')).toBe('/w/data/db');
  });

  it('names none for another database, a gateway, help, version or a command without one', () => {
    expect(
      embeddedDatabaseDir(argv('run', 'spec.yaml'), { DATABASE_URL: 'postgres://h/db' }, '/w'),
    ).toBeUndefined();
    expect(
      embeddedDatabaseDir(argv('--database-url', 'postgres://h/db', 'run', 's'), env, '/w'),
    ).toBeUndefined();
    expect(embeddedDatabaseDir(argv('run', 's', '--remote=localhost:50051'), env, '/w')).toBeUndefined();
    expect(embeddedDatabaseDir(argv('run', '--help'), env, '/w')).toBeUndefined();
    expect(embeddedDatabaseDir(argv('--version'), env, '/w')).toBeUndefined();
    expect(embeddedDatabaseDir(argv(), env, '/w')).toBeUndefined();
    expect(embeddedDatabaseDir(argv('serve'), env, '/w')).toBeUndefined();
    expect(embeddedDatabaseDir(argv('rescore', 'booookscore'), env, '/w')).toBeUndefined();
  });
});
