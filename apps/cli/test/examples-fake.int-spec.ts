// Every example runs its model systems to `completed` against the fake OpenAI-compatible server,
// answered by the example's shipped rules file (examples/fake/<family>.rules.json, read by the
// loader `npm run fake-llm -- --rules` uses) through examples/fake/models.yaml on the fake's port.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type FakeLlmServer, loadRulesFile, startFakeLlmServer } from '@precis/testing';
import { parse, stringify } from 'yaml';
import { type RunningPlugin, startExamplePlugin } from '../../../test/support/plugins.js';
import { assertBuilt, REPO_ROOT, runCli } from './run-cli.js';

const EXAMPLES = resolve(REPO_ROOT, 'examples');
const FAKE_URL = 'http://127.0.0.1:8787/v1';

type Spec = {
  datasets: { path?: string; corpus?: string; limit?: number }[];
  systems: { name: string; model?: string; plugin?: { address: string } }[];
  models?: string;
};

const readSpec = (file: string) => parse(readFileSync(resolve(EXAMPLES, file), 'utf8')) as Spec;
const modelSystems = (file: string) =>
  readSpec(file)
    .systems.filter((s) => s.model)
    .map((s) => s.name);

describe('the examples against the fake server with their shipped rules (built binary, embedded)', () => {
  let home: string;
  let fake: FakeLlmServer;
  let registry: string;

  beforeAll(async () => {
    assertBuilt();
    home = await mkdtemp(join(tmpdir(), 'precis-examples-fake-'));
    fake = await startFakeLlmServer();
    const shipped = readFileSync(resolve(EXAMPLES, 'fake/models.yaml'), 'utf8');
    // The fake CLI's default port; here the in-process fake's own.
    expect(shipped).toContain(`baseURL: ${FAKE_URL}\n`);
    registry = join(home, 'models.yaml');
    await writeFile(registry, shipped.replaceAll(FAKE_URL, fake.baseURL));
  });

  afterAll(async () => {
    await fake?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  // A copy of an example with fewer documents (or another plugin address), paths made absolute.
  async function variant(file: string, change: (spec: Spec) => void): Promise<string> {
    const spec = readSpec(file);
    const abs = (p: string) => (isAbsolute(p) ? p : resolve(EXAMPLES, p));
    for (const d of spec.datasets) {
      if (d.path) d.path = abs(d.path);
      if (d.corpus) d.corpus = abs(d.corpus);
    }
    if (spec.models) spec.models = abs(spec.models);
    change(spec);
    const out = join(home, file);
    await writeFile(out, stringify(spec));
    return out;
  }

  async function runExample(spec: string, rules: string | null, systems: string[], summaries: number) {
    fake.setRules(rules ? loadRulesFile(resolve(EXAMPLES, `fake/${rules}.rules.json`)) : []);
    fake.resetStats();
    const started = Date.now();
    const run = await runCli(['run', spec, '--models', registry, '--systems', systems.join(',')], {
      PRECIS_HOME: home,
      PRECIS_MODELS: join(home, 'no-such-registry.yaml'),
      OPENAI_API_KEY: '',
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stdout.write(`${spec}: ${seconds} s, ${fake.stats().completedChats} chat requests\n`);
    expect(run.stderr).toMatch(
      new RegExp(`\\nrun [0-9a-f-]{36}: completed; summaries ${summaries}/${summaries}\\n`),
    );
    expect(run.code).toBe(0);
    // Every reply parsed at the first attempt: nothing was re-asked.
    expect(run.stderr).not.toContain('warning:');
    if (rules) {
      expect(fake.stats().completedChats).toBeGreaterThan(0);
      expect(new Set(fake.requests().map((r) => r.model))).toEqual(new Set(['fake-gpt-4o-mini']));
    }
    return run;
  }

  it('books: hierarchical merging and incremental updating of a whole novel', async () => {
    await runExample('examples/books.yaml', 'books', modelSystems('books.yaml'), 2);
  }, 120_000);

  it('kgds: every EBS/ABS paradigm on all 100 samples, verified by the model judge', async () => {
    await runExample('examples/kgds.yaml', 'kgds', modelSystems('kgds.yaml'), 400);
  }, 240_000);

  it('opinion: Op-I and G-Eval judges over the candidates, an offline and a model summarizer', async () => {
    const systems = readSpec('opinion.yaml').systems.map((s) => s.name);
    const opI = await runExample('examples/opinion.yaml', 'opinion', systems, 10);
    expect(opI.stdout).toContain(
      '\nOpinion dimensions: correlation with human ratings (summary level) [dimensions.0]\n',
    );
    expect(opI.stdout).toMatch(/\ncoherence +0\.93 +0\.91 +2 *\n/);
    await runExample('examples/opinion-geval.yaml', 'opinion', systems, 10);
    const correlate = await runCli(
      ['meta', 'correlate', '--dataset', 'example-reviews', '--metric', 'judge:opinion-g-eval'],
      { PRECIS_HOME: home },
    );
    expect(correlate.code).toBe(0);
    expect(correlate.stdout).toMatch(/\ncoherence +0\.933 +0\.908 +0\.959 +2 +0\n/);
  }, 120_000);

  it('persphere: every model system, on the first 10 queries', async () => {
    const spec = await variant('persphere.yaml', (s) => {
      for (const d of s.datasets) d.limit = 10;
    });
    await runExample(spec, 'persphere', modelSystems('persphere.yaml'), 120);
  }, 300_000);

  it('gor: every model system and the pairwise judge, on the first meeting', async () => {
    const spec = await variant('gor.yaml', (s) => {
      for (const d of s.datasets) d.limit = 1;
    });
    await runExample(spec, 'gor', modelSystems('gor.yaml'), 9);
  }, 400_000);

  it('plugin: the example plugin and the offline engine (no model systems)', async () => {
    let plugin: RunningPlugin | undefined;
    try {
      plugin = await startExamplePlugin();
      const address = plugin.address;
      const spec = await variant('plugin.yaml', (s) => {
        for (const sys of s.systems) if (sys.plugin) sys.plugin.address = address;
      });
      const systems = readSpec('plugin.yaml').systems.map((s) => s.name);
      await runExample(spec, null, systems, 2);
    } finally {
      await plugin?.stop();
    }
  }, 120_000);
});
