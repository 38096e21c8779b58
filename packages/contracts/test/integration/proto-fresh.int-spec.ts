// CI guard: the committed generated code must match what `npm run proto` produces from proto/,
// and the protos must pass buf lint.
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

function runProto(root: string, command: string): { status: number | null; stdout: string; stderr: string } {
  const res = spawnSync(process.execPath, [join(root, 'scripts/proto.mjs'), command], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

describe('protobuf contracts', () => {
  it('generated code is up to date with proto/ (else run `npm run proto`)', () => {
    const res = runProto(repoRoot, 'check');
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/packages\/contracts\/src\/gen is up to date/);
  });

  it('protos pass buf lint', () => {
    const res = runProto(repoRoot, 'lint');
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
  });

  it('index.ts re-exports every generated precis.v1 module', async () => {
    const genDir = join(repoRoot, 'packages/contracts/src/gen/precis/v1');
    const modules = (await readdir(genDir))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.replace(/\.ts$/, ''));
    expect(modules.length).toBeGreaterThan(0);
    const index = await readFile(join(repoRoot, 'packages/contracts/src/index.ts'), 'utf8');
    for (const m of modules) expect(index).toContain(`export * from './gen/precis/v1/${m}.js';`);
  });
});

// The check itself must be able to fail: run it on a scratch copy with a tampered file.
describe('proto check on a stale copy', () => {
  let scratch: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'precis-proto-stale-'));
    for (const f of [
      'buf.yaml',
      'buf.gen.yaml',
      'scripts/proto.mjs',
      'proto',
      'packages/contracts/src/gen',
    ]) {
      await mkdir(dirname(join(scratch, f)), { recursive: true });
      await cp(join(repoRoot, f), join(scratch, f), { recursive: true });
    }
    await symlink(join(repoRoot, 'node_modules'), join(scratch, 'node_modules'), 'dir');
  });

  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('names stale and leftover files and says how to fix them', async () => {
    const common = join(scratch, 'packages/contracts/src/gen/precis/v1/common.ts');
    await writeFile(common, `${await readFile(common, 'utf8')}// hand edit\n`);
    await writeFile(join(scratch, 'packages/contracts/src/gen/precis/v1/removed.ts'), 'export {};\n');
    const res = runProto(scratch, 'check');
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('out of date: packages/contracts/src/gen/precis/v1/common.ts');
    expect(res.stderr).toContain('no longer generated: packages/contracts/src/gen/precis/v1/removed.ts');
    expect(res.stderr).toContain('run `npm run proto`');
  });

  it('reports lint errors', async () => {
    const proto = join(scratch, 'proto/precis/v1/common.proto');
    await writeFile(proto, `${await readFile(proto, 'utf8')}\nenum Colour {\n  RED = 0;\n}\n`);
    const res = runProto(scratch, 'lint');
    expect(res.status).toBe(1);
    expect(`${res.stdout}${res.stderr}`).toMatch(/proto\/precis\/v1\/common\.proto:\d+:\d+:.*"COLOUR_"/);
  });
});
