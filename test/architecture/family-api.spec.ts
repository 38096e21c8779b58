import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { FAMILY_API, familyApiViolations } from './family-api-check.js';
import { readWorkspaces } from './read-workspaces.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('the engine API of the families', () => {
  it('is the only engine entry a family source imports', () => {
    const files = readWorkspaces(root).flatMap((ws) => ws.files);
    // The walk found the families it guards (a wrong root would pass on nothing).
    const family = files.find((f) => f.path === 'packages/families/books/src/books-family.ts');
    expect(family?.text).toContain(`from '${FAMILY_API}'`);
    expect(familyApiViolations(files)).toEqual([]);
  });

  it('is exported by the engine, its types read from the sources', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'packages/engine/package.json'), 'utf8')) as {
      exports: Record<string, { types: string; default: string }>;
    };
    expect(pkg.exports['./family']).toEqual({ types: './src/family.ts', default: './dist/family.js' });
  });

  it('names each family file importing the full engine, tests and other packages aside', () => {
    const files = [
      { path: 'packages/families/x/src/a.ts', text: "import { TaskKind } from '@precis/engine';\n" },
      { path: 'packages/families/x/src/b.ts', text: "export type { Board } from '@precis/engine/family';\n" },
      { path: 'packages/families/x/src/c.ts', text: "const e = await import('@precis/engine/queries');\n" },
      { path: 'packages/families/x/src/d.spec.ts', text: "import { rankBoard } from '@precis/engine';\n" },
      { path: 'packages/api/src/e.ts', text: "import { createRun } from '@precis/engine';\n" },
      { path: 'packages/families/x/src/f.ts', text: "// not '@precis/engine'\nimport '@precis/engines';\n" },
    ];
    expect(familyApiViolations(files)).toEqual([
      "packages/families/x/src/a.ts imports '@precis/engine': a family imports only '@precis/engine/family'; export what it needs from packages/engine/src/family.ts",
      "packages/families/x/src/c.ts imports '@precis/engine/queries': a family imports only '@precis/engine/family'; export what it needs from packages/engine/src/family.ts",
    ]);
  });
});
