// One home, many commands: while `precis serve` holds an embedded home, the CLI run from that
// folder or a subfolder goes through it (runs, keys, reports), and says what it cannot do.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { runCli } from '../../apps/cli/test/run-cli.js';
import { type Served, startServe } from '../browser/serve-support.js';
import { repoRoot, tempDir, waitFor } from './runs-support.js';

const project = tempDir('precis-project-');
const home = join(project.dir, '.precis');
const examples = join(project.dir, 'examples');

function writeProject(): void {
  mkdirSync(home);
  mkdirSync(join(examples, 'data'), { recursive: true });
  copyFileSync(join(repoRoot, 'examples/quickstart.yaml'), join(examples, 'quickstart.yaml'));
  const book = 'data/the-lighthouse-keeper.md';
  copyFileSync(join(repoRoot, 'examples', book), join(examples, book));
  const quickstart = readFileSync(join(examples, 'quickstart.yaml'), 'utf8');
  const modelSystem = '  - name: hier-model\n    strategy: hierarchical\n    model: gpt-4o-mini\n';
  writeFileSync(
    join(examples, 'with-model.yaml'),
    `${quickstart.replace('name: quickstart-lighthouse', 'name: with-model\nmodels: models.yaml').replace('systems:\n', `systems:\n${modelSystem}`)}`,
  );
  copyFileSync(join(repoRoot, 'examples/fake/models.yaml'), join(examples, 'models.yaml'));
}

const restRuns = async (served: Served, key: string) => {
  const res = await fetch(`${served.base}/api/v1/runs`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as { runs?: { name: string; status: string }[] } };
};

const logLines = (output: string) =>
  output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: string; msg: string; method?: string });

describe('precis serve and the CLI on one home', () => {
  afterAll(() => project.remove());

  it('routes run, report, keys and runs through serve from the project and from examples/', async () => {
    writeProject();
    const served = await startServe({ LOG_LEVEL: 'info' }, { key: false, cwd: project.dir });
    await waitFor('the home line', async () => served.output().includes('Ctrl-C stops it'), 10_000);
    const key = /created write key "serve" \(shown only now; the page asks for it\): (precis_\S+)/.exec(
      served.output(),
    )?.[1];
    // URL, key and home come before any log line; the embedded mode names no PostgreSQL setting.
    const lines = served.output().split('\n');
    expect(lines[0]).toMatch(
      /^precis serve: web page and REST API at http:\/\/127\.0\.0\.1:\d+\/, gRPC at 127\.0\.0\.1:\d+$/,
    );
    expect(lines[1]).toBe(
      `precis serve: created write key "serve" (shown only now; the page asks for it): ${key}`,
    );
    expect(lines[2]).toBe(
      `precis serve: embedded database in ${home}/db; dataset files are read under ${project.dir} (INGEST_ROOT); Ctrl-C stops it`,
    );
    expect(served.output()).not.toMatch(/DATABASE_URL|NATS_URL|postgres:\/\//);

    const through = `precis: through \`precis serve\` (process `;
    const ingest = await runCli(
      ['ingest', 'text', 'examples/data/the-lighthouse-keeper.md', '--dataset', 'example-book'],
      {},
      project.dir,
    );
    expect([ingest.code, ingest.stderr.startsWith(through)]).toEqual([0, true]);
    const fromRoot = await runCli(['run', 'examples/quickstart.yaml'], {}, project.dir);
    expect(fromRoot.code).toBe(0);
    expect(fromRoot.stdout).toContain('Only 1 document: no system can be shown better');
    const fromExamples = await runCli(['run', 'quickstart.yaml'], {}, examples);
    expect(fromExamples.code).toBe(0);
    // Both runs are on the page's list.
    const listed = await restRuns(served, key!);
    expect(listed.status).toBe(200);
    expect(listed.body.runs?.map((r) => [r.name, r.status])).toEqual([
      ['quickstart-lighthouse', 'completed'],
      ['quickstart-lighthouse', 'completed'],
    ]);

    const alice = await runCli(['keys', 'create', 'alice', '--scope', 'read'], {}, examples);
    expect(alice.code).toBe(0);
    expect((await restRuns(served, alice.stdout.trim())).status).toBe(200);
    const keys = await runCli(['keys', 'ls', '--json'], {}, project.dir);
    expect(
      (JSON.parse(keys.stdout) as { name: string; scope: string }[]).map((k) => [k.name, k.scope]),
    ).toEqual([
      ['serve', 'write'],
      ['alice', 'read'],
    ]);
    const ls = await runCli(['runs', 'ls', '--json'], {}, examples);
    expect((JSON.parse(ls.stdout) as unknown[]).length).toBe(2);

    const pid = /process (\d+)\)/.exec(ingest.stderr)![1];
    const rm = await runCli(['runs', 'rm', 'abc'], {}, project.dir);
    expect([rm.code, rm.stderr.split('\n')[1]]).toEqual([
      1,
      `precis: error: \`precis runs rm\` needs the embedded database itself, which \`precis serve\` (process ${pid}, ${served.base}/) holds: stop serve, run this, then start serve again`,
    ]);
    const models = await runCli(['run', 'quickstart.yaml', '--models', 'm.yaml'], {}, examples);
    expect([models.code, models.stderr.split('\n')[1]]).toEqual([
      1,
      `precis: error: --models: \`precis serve\` (process ${pid}) runs this home's runs with its own registry: restart it as \`PRECIS_MODELS=m.yaml precis serve\`, then run without --models`,
    ]);
    // A spec's own registry is not read through serve: the CLI says how to give it to serve.
    const withModel = await runCli(['run', 'with-model.yaml'], {}, examples);
    expect([withModel.code, withModel.stderr.split('\n')[1]]).toEqual([
      1,
      `precis: the spec's models: file (${examples}/models.yaml) is not read through \`precis serve\`, which runs models from its own registry: to use this one, restart it as \`PRECIS_MODELS=${examples}/models.yaml precis serve\``,
    ]);
    const second = await runCli(['serve', '--port', '1'], {}, examples);
    expect([second.code, second.stderr]).toEqual([
      1,
      `precis: error: ${home} is already served by process ${pid} at ${served.base}/: use that one, or stop it first\n`,
    ]);

    // At most one info line per request: the gRPC call's own (plus each run's end), no task lines.
    const info = logLines(served.output()).filter((l) => l.level === 'info');
    const others = info.filter((l) => l.method === undefined).map((l) => l.msg);
    expect(others).toEqual(['run completed', 'run completed']);
    expect(info.filter((l) => l.method === 'CreateRun')).toHaveLength(2);

    expect(await served.stop()).toBe(0);
    expect(existsSync(join(home, 'serve.json'))).toBe(false);
    // Without serve the CLI opens the same home itself, from the subfolder too.
    const direct = await runCli(['runs', 'ls', '--json'], {}, examples);
    expect([direct.code, direct.stderr, (JSON.parse(direct.stdout) as unknown[]).length]).toEqual([0, '', 2]);

    const again = await startServe({}, { key: false, cwd: examples });
    await waitFor('the home line', async () => again.output().includes('Ctrl-C stops it'), 10_000);
    expect(again.output().split('\n')[1]).toBe(
      'precis serve: the page asks for an API key: use one made earlier (serve, alice), or make one now with `precis keys create <name>` from this folder (commands on this home go through this server)',
    );
    expect(await again.stop()).toBe(0);
  }, 240_000);
});
