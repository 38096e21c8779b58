// `precis init`: the examples a user can run anywhere, written once, never over their files.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { assertBuilt, REPO_ROOT, runCli } from './run-cli.js';

describe('precis init', () => {
  const dir = mkdtempSync(join(tmpdir(), 'precis-init-'));
  beforeAll(() => assertBuilt());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the self-contained example specs and their data, and says what to run', async () => {
    const res = await runCli(['init'], {}, dir);
    expect([res.code, res.stderr]).toEqual([0, '']);
    expect(res.stdout.split('\n').slice(0, 3)).toEqual([
      'wrote 16 files to precis-examples/ (6 specs)',
      'next:',
      '  precis run precis-examples/quickstart.yaml        an offline book benchmark, no model needed',
    ]);
    const examples = join(dir, 'precis-examples');
    expect(readFileSync(join(examples, 'data/the-lighthouse-keeper.md'), 'utf8')).toBe(
      readFileSync(join(REPO_ROOT, 'examples/data/the-lighthouse-keeper.md'), 'utf8'),
    );
    // The book, KGDS, GoR and PerSphere specs read ../../shared/datasets: not written.
    for (const spec of ['books.yaml', 'kgds.yaml', 'gor.yaml', 'persphere.yaml'])
      expect([spec, existsSync(join(examples, spec))]).toEqual([spec, false]);
    expect(existsSync(join(examples, 'opinion.yaml'))).toBe(true);
  });

  it('refuses a directory holding one of its files, and writes nothing there', async () => {
    const target = join(dir, 'mine');
    mkdirSync(join(target, 'data'), { recursive: true });
    writeFileSync(join(target, 'quickstart.yaml'), 'my own spec\n');
    const res = await runCli(['init', 'mine'], {}, dir);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      `precis: error: ${target} already has quickstart.yaml: nothing was written; give another directory, or remove them\n`,
    );
    expect(readFileSync(join(target, 'quickstart.yaml'), 'utf8')).toBe('my own spec\n');
    expect(existsSync(join(target, 'models.yaml'))).toBe(false);
  });
});
