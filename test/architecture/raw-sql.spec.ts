import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import {
  guardedFolders,
  guardedSources,
  mayHoldSql,
  rawSqlOutsideStores,
  UNGUARDED_FOLDERS,
} from './raw-sql-check.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('raw SQL in every package and app but the database layer and the test helpers', () => {
  it('lives only in stores and migrations', () => {
    const files = guardedSources(root);
    // The walk found the code it guards (a wrong root would pass on nothing).
    expect(files.some((f) => f.path === 'packages/engine/src/stores/tasks.store.ts')).toBe(true);
    expect(files.some((f) => f.path === 'packages/families/kgds/src/sample.ts')).toBe(true);
    expect(files.some((f) => f.path === 'apps/cli/src/portable/export-run.ts')).toBe(true);
    expect(files.some((f) => f.path === 'packages/service/src/health/readiness.service.ts')).toBe(true);
    expect(files.some((f) => f.path === 'packages/meta/src/judge-scores.ts')).toBe(true);
    // packages/api/src has no SQL of its own today; the walk still reads it.
    expect(files.some((f) => f.path.startsWith('packages/api/src/'))).toBe(true);
    expect(files.some((f) => f.path === 'packages/llm/src/limits/pg-slot-pool.ts')).toBe(true);
    expect(files.some((f) => f.path.startsWith('apps/gateway/src/'))).toBe(true);
    const folders = guardedFolders(root);
    expect(folders).toContain('packages/retrievers/src');
    for (const unguarded of UNGUARDED_FOLDERS) {
      expect(folders).not.toContain(unguarded);
      expect(files.some((f) => f.path.startsWith(`${unguarded}/`))).toBe(false);
    }
    expect(UNGUARDED_FOLDERS).toEqual(['packages/db/src', 'packages/testing/src']);
    expect(rawSqlOutsideStores(files)).toEqual([]);
  });

  it('names each query outside a store by file and line', () => {
    const files = [
      {
        path: 'packages/engine/src/planner/x.ts',
        text: "const a = 1;\n  const r = await db.query('SELECT 1');\n",
      },
      { path: 'packages/engine/src/stores/runs.store.ts', text: "await db.query('SELECT 1');\n" },
      { path: 'packages/families/gor/src/steps/weights-store.ts', text: "await db.query('SELECT 2');\n" },
      { path: 'packages/db/src/migrations/1-init.ts', text: "await q.query('CREATE TABLE t ()');\n" },
      { path: 'packages/families/kgds/src/store.ts', text: 'db\n  .query(sql)\n' },
      {
        path: 'packages/families/kgds/src/sample.ts',
        text: '// a query (not a call)\nm.query(`SELECT 3`);\n',
      },
    ];
    expect(rawSqlOutsideStores(files)).toEqual([
      "packages/engine/src/planner/x.ts:2: const r = await db.query('SELECT 1');",
      'packages/families/kgds/src/sample.ts:2: m.query(`SELECT 3`);',
    ]);
  });

  it('lets stores and migrations hold SQL', () => {
    expect(mayHoldSql('packages/engine/src/tasks/task-store.ts')).toBe(true);
    expect(mayHoldSql('packages/families/opinion/src/store.ts')).toBe(true);
    expect(mayHoldSql('packages/db/src/migrations/1700000000000-Init.ts')).toBe(true);
    expect(mayHoldSql('packages/engine/src/queries/run-queries.ts')).toBe(false);
  });
});
