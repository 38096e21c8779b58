// `precis run --models <file>`: the registry instead of the spec's `models:` and $PRECIS_MODELS;
// and a run whose failures came from cached model replies says that --no-cache asks again, also
// through `precis serve`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type FakeLlmServer, loadRulesFile, startFakeLlmServer } from '@precis/testing';
import { startServe } from '../../../test/browser/serve-support.js';
import { assertBuilt, REPO_ROOT, runCli } from './run-cli.js';

const SPEC = 'examples/opinion.yaml';
const RULES = resolve(REPO_ROOT, 'examples/fake/opinion.rules.json');

describe('precis run --models (built binary, embedded, fake server)', () => {
  let home: string;
  let fake: FakeLlmServer;
  let registry: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    assertBuilt();
    home = await mkdtemp(join(tmpdir(), 'precis-cli-models-'));
    fake = await startFakeLlmServer();
    registry = join(home, 'fake-models.yaml');
    await writeFile(
      registry,
      `models:\n  gpt-4o-mini:\n    baseURL: ${fake.baseURL}\n    model: fake-gpt-4o-mini\n    maxConcurrency: 16\n`,
    );
    // The spec's models.yaml needs OPENAI_API_KEY; PRECIS_MODELS names a file that is not there.
    env = { PRECIS_HOME: home, OPENAI_API_KEY: '', PRECIS_MODELS: join(home, 'missing.yaml') };
  });

  afterAll(async () => {
    await fake?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it("takes the registry from --models, not from the spec's models: file", async () => {
    const spec = await runCli(['run', SPEC], env);
    expect(spec.code).toBe(4);
    expect(spec.stderr).toContain('OPENAI_API_KEY');
    expect(fake.stats().completedChats).toBe(0);

    fake.setRules(loadRulesFile(RULES));
    const run = await runCli(['run', SPEC, '--models', registry], env);
    expect(run.stderr).toMatch(/\nrun [0-9a-f-]{36}: completed; summaries 10\/10\n/);
    expect(run.code).toBe(0);
    // 1 preflight + 2 model summaries + 70 judgments (10 summaries x 7 dimensions).
    expect(fake.stats().completedChats).toBe(73);
    expect(new Set(fake.requests().map((r) => r.model))).toEqual(new Set(['fake-gpt-4o-mini']));
  });

  it('names a --models file that is not there, and refuses --models with --remote', async () => {
    // Relative to the working directory, as a user types it.
    const run = await runCli(['run', SPEC, '--models', 'examples/no-such-models.yaml'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `precis: error: invalid model registry ${REPO_ROOT}/examples/no-such-models.yaml:\n  ${REPO_ROOT}/examples/no-such-models.yaml (file): cannot read: file not found; check the path\n`,
    );
    const remote = await runCli(['--remote', '127.0.0.1:1', 'run', SPEC, '--models', registry], env);
    expect(remote.code).toBe(1);
    expect(remote.stderr).toBe(
      'precis: error: --models applies to embedded runs: a gateway uses its own registry (PRECIS_MODELS where it runs)\n',
    );
  });

  it('says that --no-cache asks again when failed tasks used cached replies', async () => {
    // Echoed replies parse as no score: every judgment fails, and the replies are cached (in a home
    // of its own: the first test cached good replies to the same prompts).
    fake.setRules([]);
    const own = await mkdtemp(join(tmpdir(), 'precis-cli-cached-'));
    const env2 = { ...env, PRECIS_HOME: own };
    const first = await runCli(['run', SPEC, '--models', registry, '--systems', 'candidates'], env2);
    expect(first.code).toBe(3);
    expect(first.stderr).toContain('; 42 of 42 verify tasks failed; ');
    expect(first.stderr).not.toContain('hint:');

    fake.resetStats();
    const again = await runCli(
      ['run', SPEC, '--models', registry, '--systems', 'candidates', '--fresh'],
      env2,
    );
    expect(again.code).toBe(3);
    expect(fake.stats().completedChats).toBe(1);
    const cachedHint = `\`precis run ${SPEC} --systems candidates --models ${registry} --no-cache\``;
    expect(again.stderr).toContain(`\nhint: 42 failed tasks used cached model replies; ${cachedHint} asks`);
    const id = again.stderr.match(/started run ([0-9a-f-]{36})/)![1]!;
    const show = await runCli(['runs', 'show', id], env2);
    expect(show.stdout).toContain(
      '\nhint:     42 failed tasks used cached model replies; `precis run <spec> --no-cache` asks the models again\n',
    );

    // Through `precis serve` on the same home (the gateway counts them): the same hints.
    const served = await startServe({ PRECIS_MODELS: registry, INGEST_ROOT: REPO_ROOT }, { home: own });
    try {
      const viaServe = await runCli(['run', SPEC, '--systems', 'candidates', '--fresh'], env2);
      expect(viaServe.code).toBe(3);
      expect(viaServe.stderr).toContain(
        `\nhint: 42 failed tasks used cached model replies; \`precis run ${SPEC} --systems candidates --no-cache\` asks`,
      );
      const remoteShow = await runCli(['runs', 'show', id], env2);
      expect(remoteShow.stderr).toMatch(/^precis: through `precis serve` \(process \d+\)/);
      expect(remoteShow.stdout).toContain(
        '\nhint:     42 failed tasks used cached model replies; `precis run <spec> --no-cache` asks the models again\n',
      );
    } finally {
      await served.stop();
    }

    fake.setRules(loadRulesFile(RULES));
    const fresh = await runCli(
      ['run', SPEC, '--models', registry, '--systems', 'candidates', '--no-cache'],
      env2,
    );
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).not.toContain('hint:');
    await rm(own, { recursive: true, force: true });
  });
});
