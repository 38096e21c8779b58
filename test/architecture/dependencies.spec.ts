import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { ArchitectureDocError, parseArchitecture } from './architecture-rules.js';
import { checkDependencies, importsOf, type Workspace } from './dependency-check.js';
import { readWorkspaces } from './read-workspaces.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');

describe('docs/architecture.md and the code', () => {
  it('agree: every workspace mapped, every import allowed and declared, nothing declared unused', () => {
    const violations = checkDependencies(parseArchitecture(doc), readWorkspaces(root));
    expect(violations.map((v) => `[${v.rule}] ${v.message}`)).toEqual([]);
  });
});

// A small map: pure <- core <- apps, with two apps and one exception.
const MAP = `
## Layers

| Layer | May import | Other modules | What |
|---|---|---|---|
| pure | pure | \`node:crypto\` | values |
| core | pure | any | leaves |
| apps | pure, core | any | deployables |

## Packages

| Package | Folder | Layer | Owns |
|---|---|---|---|
| \`@x/text\` | \`packages/text\` | pure | text |
| \`@x/db\` | \`packages/db\` | core | tables |
| \`@x/cli\` | \`apps/cli\` | apps | the command |
| \`@x/gateway\` | \`apps/gateway\` | apps | the API |

## Allowed exceptions

| From | To | Reason |
|---|---|---|

## Dependencies loaded by name

| Workspace | Dependency | Why |
|---|---|---|
`;

const ws = (
  folder: string,
  name: string,
  dependencies: string[],
  files: Record<string, string>,
): Workspace => ({
  folder,
  name,
  dependencies,
  files: Object.entries(files).map(([path, text]) => ({ path: `${folder}/${path}`, text })),
});

// The clean example: each rule is broken below by changing one thing.
const clean = (): Workspace[] => [
  ws('packages/text', '@x/text', [], { 'src/index.ts': "import { createHash } from 'node:crypto';" }),
  ws('packages/db', '@x/db', ['@x/text', 'pg'], {
    'src/index.ts': "import pg from 'pg';\nexport * from '@x/text';",
  }),
  ws('apps/cli', '@x/cli', ['@x/db'], {
    'src/main.ts': "const db = await import('@x/db');",
    'src/main.spec.ts': "import { x } from '@x/text';",
  }),
  ws('apps/gateway', '@x/gateway', [], { 'src/main.ts': '// nothing yet' }),
];

const check = (workspaces: Workspace[], map = MAP) =>
  checkDependencies(parseArchitecture(map), workspaces).map((v) => `[${v.rule}] ${v.message}`);

describe('checkDependencies', () => {
  it('finds nothing in a clean example', () => {
    expect(check(clean())).toEqual([]);
  });

  it('names the file, the import and the rule of each broken rule', () => {
    const broken = clean();
    broken[0]!.files.push({ path: 'packages/text/src/read.ts', text: "import { readFileSync } from 'fs';" });
    broken[1]!.files.push({ path: 'packages/db/src/cli.ts', text: "export { run } from '@x/cli';" });
    broken[1]!.files.push({
      path: 'packages/db/test/cli.spec.ts',
      text: "import { main } from '../../../apps/cli/src/main.js';",
    });
    broken[2]!.files.push({ path: 'apps/cli/test/gw.ts', text: "import '@x/gateway/src/main.js';" });
    broken[0]!.files.push({ path: 'packages/text/src/db.ts', text: "import type { Row } from '@x/db';" });
    broken[3]!.files.push({
      path: 'apps/gateway/src/db.ts',
      text: "import { open } from '../../../packages/db/src/index.js';",
    });
    expect(check(broken)).toEqual(
      [
        '[pure-io] packages/text/src/read.ts imports \'fs\': layer "pure" does no I/O and may import only node:crypto',
        '[layer] packages/text/src/db.ts imports \'@x/db\' (layer "core"): layer "pure" may import only pure; move the code or list an allowed exception',
        "packages/text/src/db.ts imports '@x/db' but packages/text/package.json does not declare @x/db in its dependencies",
        "[package-imports-app] packages/db/src/cli.ts imports '@x/cli': a library never imports an app",
        "packages/db/src/cli.ts imports '@x/cli' but packages/db/package.json does not declare @x/cli in its dependencies",
        "[package-imports-app] packages/db/test/cli.spec.ts imports '../../../apps/cli/src/main.js': a library never imports an app",
        "[app-imports-app] apps/cli/test/gw.ts imports '@x/gateway/src/main.js': an app never imports another app",
        "[relative-escape] apps/gateway/src/db.ts imports '../../../packages/db/src/index.js': it reaches into packages/db by path; import @x/db instead",
      ].map((m) => (m.startsWith('[') ? m : `[undeclared] ${m}`)),
    );
  });

  it('reports a declared dependency the source never imports; tests do not count', () => {
    const broken = clean();
    broken[2]!.dependencies.push('@x/text', 'commander');
    expect(check(broken)).toEqual([
      '[unused] apps/cli/package.json declares @x/text but nothing under apps/cli/src imports it; remove it (tests use devDependencies)',
      '[unused] apps/cli/package.json declares commander but nothing under apps/cli/src imports it; remove it (tests use devDependencies)',
    ]);
  });

  it('accepts a listed exception and a dependency loaded by name, and reports them once stale', () => {
    const map = MAP.replace(
      '| From | To | Reason |\n|---|---|---|\n',
      '| From | To | Reason |\n|---|---|---|\n| `@x/text` | `@x/db` | debt |\n',
    ).replace(
      '| Workspace | Dependency | Why |\n|---|---|---|\n',
      '| Workspace | Dependency | Why |\n|---|---|---|\n| `@x/gateway` | `rxjs` | peer |\n| `@x/db` | `pg` | no |\n',
    );
    const broken = clean();
    broken[0]!.dependencies.push('@x/db');
    broken[0]!.files.push({ path: 'packages/text/src/db.ts', text: "import type { Row } from '@x/db';" });
    broken[3]!.dependencies.push('rxjs');
    expect(check(broken, map)).toEqual([
      '[stale-exception] @x/db imports pg; remove its "loaded by name" row',
    ]);
    broken[0]!.files.pop();
    broken[0]!.dependencies.pop();
    broken[3]!.dependencies.pop();
    expect(check(broken, map)).toEqual([
      '[stale-exception] @x/gateway does not declare rxjs any more; remove its "loaded by name" row',
      '[stale-exception] @x/db imports pg; remove its "loaded by name" row',
      '[stale-exception] the allowed exception @x/text -> @x/db matches no import any more; remove its row',
    ]);
  });

  it('reports a workspace missing from the map and a row with no workspace', () => {
    const extra = [...clean().slice(0, 3), ws('packages/web', '@x/web', [], {})];
    expect(check(extra)).toEqual([
      '[unmapped-package] @x/web (packages/web) is not in the Packages table of docs/architecture.md; add it with its layer',
      '[unmapped-package] docs/architecture.md lists @x/gateway (apps/gateway), which is not a workspace; remove the row',
    ]);
  });
});

describe('parseArchitecture', () => {
  it('names the line of a row in an unknown layer', () => {
    const bad = MAP.replace('| `@x/db` | `packages/db` | core |', '| `@x/db` | `packages/db` | infra |');
    expect(() => parseArchitecture(bad)).toThrow(
      new ArchitectureDocError('docs/architecture.md:15: @x/db is in unknown layer "infra"'),
    );
  });

  it('refuses a page without a section the test reads', () => {
    expect(() => parseArchitecture(MAP.replace('## Packages', '## Modules'))).toThrow(
      'docs/architecture.md: no "## Packages" section; the dependency test reads it',
    );
  });
});

describe('importsOf', () => {
  it('reads every import form and ignores strings and comments', () => {
    const text = [
      "import a from 'a';",
      "import type { B } from 'b';",
      "export * from './c.js';",
      "import 'd';",
      "const e = await import('e');",
      "// import f from 'f';",
      'const g = \'import h from "h"\';',
      "export { i } from 'i';",
    ].join('\n');
    expect(importsOf(text)).toEqual(['a', 'b', './c.js', 'd', 'e', 'i']);
  });
});
