import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { assertBuilt, runCli } from './run-cli.js';

// The CLI reads local files with the same regular-file and size checks as the servers: a device
// or a pipe is refused at once (it once read 9 GB from /dev/zero), an over-size file too.
describe('precis reading local files', () => {
  let dir: string;
  let env: Record<string, string>;

  beforeAll(() => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'precis-cli-files-'));
    execFileSync('mkfifo', [join(dir, 'pipe.md')]);
    writeFileSync(join(dir, 'book.md'), 'Mara keeps the lighthouse.\n\nA storm comes.\n');
    env = { PRECIS_HOME: join(dir, 'home') };
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a device, a named pipe and an over-size file, importing nothing', async () => {
    const zero = await runCli(['ingest', 'text', '/dev/zero', '--dataset', 'zero'], env);
    expect(zero.code).toBe(1);
    expect(zero.stderr.trim()).toBe(
      'precis: error: /dev/zero: is a device, not a regular file; pass the path of a data file',
    );
    const pipe = await runCli(['ingest', 'text', join(dir, 'pipe.md'), '--dataset', 'pipe'], env);
    expect(pipe.stderr.trim()).toBe(
      `precis: error: ${join(dir, 'pipe.md')}: is a named pipe, not a regular file; pass the path of a data file`,
    );
    const big = await runCli(['ingest', 'text', join(dir, 'book.md'), '--dataset', 'book'], {
      ...env,
      PRECIS_MAX_FILE_BYTES: '10',
    });
    expect(big.stderr.trim()).toBe(
      `precis: error: ${join(dir, 'book.md')}: is 43 bytes, over the limit of 10 bytes (set by PRECIS_MAX_FILE_BYTES); split the file or raise the limit`,
    );
    const ls = await runCli(['datasets', 'ls', '--json'], env);
    expect(JSON.parse(ls.stdout)).toEqual([]);
  });

  it('refuses a spec or registry that is not a regular file', async () => {
    const spec = await runCli(['run', '/dev/zero'], env);
    expect(spec.code).toBe(1);
    expect(spec.stderr).toContain(
      '/dev/zero: invalid benchmark spec\n  - cannot read the file (is a device, not a regular file',
    );
    const withRegistry = join(dir, 'spec.yaml');
    writeFileSync(
      withRegistry,
      [
        'name: pipe-registry',
        'models: pipe.md',
        'datasets: [{ name: book, kind: text, path: book.md }]',
        'systems: [{ name: s, strategy: hierarchical, model: m }]',
        'metrics: [{ name: booookscore, judge: { engine: heuristic } }]',
      ].join('\n'),
    );
    const registry = await runCli(['run', withRegistry], env);
    expect(registry.code).toBe(1);
    expect(registry.stderr).toContain('cannot read: is a named pipe, not a regular file');
  });

  it('refuses a spec nested past 64 levels, in YAML or JSON, naming the place and not the stack', async () => {
    const deep = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;
    const yaml = join(dir, 'deep.yaml');
    writeFileSync(yaml, `name: deep\nsystems: ${deep(20_000)}\n`);
    const json = join(dir, 'deep.json');
    writeFileSync(json, `{"name": "deep", "systems": ${deep(5000)}}`);
    const fix = 'a benchmark spec needs only a few levels: flatten it';
    for (const [file, where] of [
      [yaml, 'line 2, column 74'],
      [json, 'line 1, column 92'],
    ] as const) {
      const res = await runCli(['run', file], env);
      // The folder's random name is masked as secret-looking: compare from the file name on.
      expect([
        res.code,
        res.stderr.startsWith('precis: error: /'),
        res.stderr.trim().split('/').pop(),
      ]).toEqual([
        1,
        true,
        `${basename(file)}: invalid benchmark spec\n  - nested more than 64 levels deep (${where}); ${fix}`,
      ]);
    }
  });

  // A spec importing book.md, then `second`.
  const twoDatasetSpec = (name: string, second: string) => {
    const spec = join(dir, `${name}.yaml`);
    writeFileSync(
      spec,
      [
        `name: ${name}`,
        `datasets: [{ name: book, kind: text, path: book.md }, { name: second, kind: text, path: ${second} }]`,
        'systems: [{ name: s, strategy: hierarchical, engine: textrank }]',
        'metrics: [{ name: booookscore, judge: { engine: heuristic } }]',
      ].join('\n'),
    );
    return spec;
  };

  it('names the spec entry whose dataset file is missing, and imports and creates nothing', async () => {
    const spec = twoDatasetSpec('missing-data', 'gone.md');
    const res = await runCli(['run', spec], env);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(
      `precis: error: ${join(dir, 'gone.md')}: file not found; check the path (datasets[1] in ${spec})`,
    );
    // Every file is checked before any import: book.md, listed first, is not imported either.
    const datasets = await runCli(['datasets', 'ls', '--json'], env);
    expect(JSON.parse(datasets.stdout)).toEqual([]);
    const runs = await runCli(['runs', 'ls', '--json'], env);
    expect(JSON.parse(runs.stdout)).toEqual([]);
  });

  it("imports none of a spec's datasets when a later one is invalid", async () => {
    writeFileSync(join(dir, 'empty.md'), '');
    const spec = twoDatasetSpec('empty-data', 'empty.md');
    const res = await runCli(['run', spec], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${join(dir, 'empty.md')}: file is empty`);
    const datasets = await runCli(['datasets', 'ls', '--json'], env);
    expect(JSON.parse(datasets.stdout)).toEqual([]);
  });
});
