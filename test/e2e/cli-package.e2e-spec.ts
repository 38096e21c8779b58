// Precis as a user installs it: `npm run pack`'s tarball installed into an empty prefix from a
// folder outside the repository, then the installed `precis` (on the Node running this test):
// --version, init, the quickstart run, an HTML report, and `precis serve` (page and API).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { freePort } from '@precis/testing';
import { repoRoot, tempDir, waitFor } from './runs-support.js';

const scratch = tempDir('precis-package-');
const prefix = join(scratch.dir, 'prefix');
const project = join(scratch.dir, 'project');
// A user's shell (proxy and CA settings kept) with this Node and npm first on PATH, and nothing
// that points into the repository or at the test's servers.
const userEnv: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) =>
      !/^(DATABASE_URL|NATS_URL|PRECIS_.*|NODE_OPTIONS|NODE_PATH|INIT_CWD|npm_(package|lifecycle)_.*)$/.test(
        k,
      ),
  ),
);
userEnv.PATH = `${join(prefix, 'bin')}:${join(process.execPath, '..')}:${process.env.PATH}`;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function sh(cmd: string, args: string[], cwd: string): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env: userEnv, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const precis = (args: string[]) => sh(join(prefix, 'bin', 'precis'), args, project);

describe('the installable precis package', () => {
  let serve: ChildProcess | undefined;
  afterAll(() => {
    serve?.kill('SIGKILL');
    scratch.remove();
  });

  it('installs from its tarball alone and runs the quickstart, a report and serve', async () => {
    const packed = await sh(
      process.execPath,
      [join(repoRoot, 'scripts/pack-cli.mjs'), '--out', scratch.dir],
      repoRoot,
    );
    expect(packed.stderr).toBe('');
    expect(packed.stdout).toMatch(
      /^packed .*precis-0\.1\.0\.tgz: [\d.]+ MB \([\d.]+ MB unpacked, \d+ files\); 23 workspace packages bundled, 26 registry dependencies\n/,
    );
    const manifest = JSON.parse(readFileSync(join(scratch.dir, 'package', 'package.json'), 'utf8'));
    // Build and test tools stay out; the workspace packages the CLI uses go in, the others do not.
    for (const dev of [
      'vite',
      'preact',
      'jest',
      'typescript',
      '@swc/core',
      '@precis/testing',
      '@precis/gateway',
    ])
      expect([dev, manifest.dependencies[dev]]).toEqual([dev, undefined]);
    expect(manifest.bundleDependencies).toEqual(
      expect.arrayContaining(['@precis/db', '@precis/web', '@precis/api']),
    );

    const installed = await sh(
      'npm',
      ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', join(scratch.dir, 'precis-0.1.0.tgz')],
      scratch.dir,
    );
    expect([installed.code, installed.stderr.split('\n').filter((l) => /ERR|EBADENGINE/.test(l))]).toEqual([
      0,
      [],
    ]);
    mkdirSync(project);
    expect((await precis(['--version'])).stdout).toBe('0.1.0\n');

    const init = await precis(['init']);
    expect(init.stdout.split('\n')[0]).toBe('wrote 16 files to precis-examples/ (6 specs)');
    expect(readdirSync(join(project, 'precis-examples')).sort()).toEqual([
      'data',
      'fake',
      'models.yaml',
      'opinion-geval.yaml',
      'opinion.yaml',
      'plugin.yaml',
      'plugins',
      'quickstart.yaml',
    ]);
    const again = await precis(['init']);
    expect([again.code, again.stderr]).toEqual([
      1,
      expect.stringContaining(`${join(project, 'precis-examples')} already has data/field-notes.jsonl`),
    ]);

    const run = await precis(['run', 'precis-examples/quickstart.yaml']);
    expect([run.code, run.stderr]).toEqual([0, expect.not.stringContaining('error')]);
    expect(run.stdout).toMatch(/^=1 +hier-lead +hierarchical +engine:lead +100\.0 /m);
    const [{ id }] = JSON.parse((await precis(['runs', 'ls', '--json'])).stdout) as { id: string }[];
    const report = await precis(['report', id, '--format', 'html', '--out', 'report.html']);
    expect(report.code).toBe(0);
    const html = readFileSync(join(project, 'report.html'), 'utf8');
    expect(html).toContain('<script type="application/json" id="precis-data">');
    expect(html).toContain('quickstart-lighthouse');
    expect(existsSync(join(project, '.precis', 'db', 'PG_VERSION'))).toBe(true);

    const port = await freePort();
    serve = spawn(
      join(prefix, 'bin', 'precis'),
      ['serve', '--port', String(port), '--grpc-port', String(await freePort())],
      {
        cwd: project,
        env: { ...userEnv, LOG_LEVEL: 'warn' },
      },
    );
    let out = '';
    serve.stdout!.on('data', (d) => (out += d));
    serve.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => serve!.once('exit', (code) => r(code)));
    const key = await waitFor(
      'precis serve',
      async () => /created write key "serve" .*: (precis_\S+)/.exec(out)?.[1],
      60_000,
    );
    const base = `http://127.0.0.1:${port}`;
    const page = await fetch(`${base}/`);
    expect([page.status, (await page.text()).includes('<title>Precis</title>')]).toEqual([200, true]);
    expect((await fetch(`${base}/api/v1/runs`)).status).toBe(401);
    const listed = await fetch(`${base}/api/v1/runs`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await listed.json()) as { runs: { id: string; name: string; status: string }[] };
    expect(body.runs.map((r) => [r.id, r.name, r.status])).toEqual([
      [id, 'quickstart-lighthouse', 'completed'],
    ]);
    serve.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 600_000);
});
