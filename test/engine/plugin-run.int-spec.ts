// Summarizer plugins in a run (PostgreSQL, in-process bus): the example plugin as its own process
// serves hierarchical merging; a dead plugin, a slow one and one answering an empty summary each
// fail their system's tasks with a message naming the plugin, while the other systems go on. In a
// service's context (PRECIS_PLUGIN_ADDRESSES), an address outside the list is refused unconnected
// and failures are stored in words that tell nothing of what answered.
import net from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SummarizeResponse } from '@precis/contracts';
import { freePort } from '../../packages/service/test/support/service-process.js';
import {
  connectionCounter,
  listenLocal,
  type RunningPlugin,
  serveTestPlugin,
  startExamplePlugin,
  wordsThenHangUp,
} from '../support/plugins.js';
import { builtInFamilies, PluginAddressPolicy, sectionRows, validateSpec } from '../support/precis.js';
import { type RunHarness, startRunHarness } from './run-harness.js';

const repo = resolve(import.meta.dirname, '../..');
const story = resolve(repo, 'examples/data/the-lighthouse-keeper.md');

// A test plugin in this process: `answer` gives each Summarize reply after `delayMs`.
function testPlugin(answer: () => Partial<SummarizeResponse>, delayMs = 0): Promise<RunningPlugin> {
  return serveTestPlugin({
    describe: (_call, done) =>
      done(null, {
        name: 'test-plugin',
        version: '1',
        description: '',
        roles: [],
        contextWindowTokens: 0,
        defaultParams: {},
      }),
    summarize: (_call, done) =>
      setTimeout(
        () =>
          done(null, {
            text: '',
            usage: undefined,
            producer: 'test-plugin@1',
            metadataJson: '',
            ...answer(),
          }),
        delayMs,
      ),
  });
}

const hier = { chunkSize: 256, levelBudgets: [60, 120] };

describe('summarizer plugins in a run', () => {
  let h: RunHarness;
  let example: RunningPlugin;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    h = await startRunHarness('plugin_runs');
    example = await startExamplePlugin();
  });

  afterAll(async () => {
    await Promise.all(stops.map((stop) => stop()));
    await example?.stop();
    await h?.close();
  });

  it('runs hierarchical merging through the example plugin, then from the cache', async () => {
    const spec = {
      name: 'plugin-example',
      datasets: [{ name: 'story', kind: 'text', path: story }],
      systems: [
        { name: 'plugin-lead', strategy: 'hierarchical', plugin: { address: example.address }, params: hier },
        { name: 'hier-lead', strategy: 'hierarchical', engine: 'lead', params: hier },
      ],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    };
    const first = await h.execute(spec);
    expect(first.progress.status).toBe('completed');
    const rows = sectionRows<{ system: string; summarizer: string; status: string }>(first.report, 'books');
    expect(rows.find((r) => r.system === 'plugin-lead')).toMatchObject({
      summarizer: `plugin:${example.address}`,
      status: 'complete',
    });
    const [summary] = await h.db.query(
      `SELECT producer FROM summaries WHERE run_id = $1 AND system = 'plugin-lead'`,
      [first.run.id],
    );
    expect(summary.producer).toBe(`plugin:${example.address}`);
    const calls = async (runId: string) =>
      (await h.db.query(
        `SELECT status, COUNT(*)::int AS n FROM llm_calls WHERE run_id = $1 AND kind = 'plugin' GROUP BY 1 ORDER BY 1`,
        [runId],
      )) as { status: string; n: number }[];
    const sent = await calls(first.run.id);
    expect(sent.map((c) => c.status)).toEqual(['ok']);
    // The same spec again: every plugin step answered from the response cache.
    const again = await h.execute(spec);
    expect(await calls(again.run.id)).toEqual([{ status: 'cached', n: sent[0]!.n }]);
  });

  it('fails a dead, a slow and an empty plugin by name, and the other systems go on', async () => {
    const slow = await testPlugin(() => ({ text: 'Late.' }), 2000);
    const empty = await testPlugin(() => ({ text: '  ' }));
    stops.push(slow.stop, empty.stop);
    const dead = `127.0.0.1:${await freePort()}`;
    const r = await h.execute({
      name: 'plugin-failures',
      datasets: [{ name: 'story', kind: 'text', path: story }],
      systems: [
        { name: 'dead', strategy: 'hierarchical', plugin: { address: dead, maxRetries: 1 }, params: hier },
        {
          name: 'slow',
          strategy: 'hierarchical',
          plugin: { address: slow.address, timeoutMs: 300, maxRetries: 0 },
          params: hier,
        },
        { name: 'empty', strategy: 'hierarchical', plugin: { address: empty.address }, params: hier },
        { name: 'hier-lead', strategy: 'hierarchical', engine: 'lead', params: hier },
      ],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    });
    expect(r.progress.status).toBe('completed-with-failures');
    expect(r.progress.summaries).toMatchObject({ expected: 4, done: 1, failed: 3 });
    const errors: { system: string; error: string }[] = await h.db.query(
      `SELECT DISTINCT payload->>'system' AS system, error FROM tasks WHERE run_id = $1 AND status IN ('failed', 'dead') ORDER BY 1`,
      [r.run.id],
    );
    const errorOf = (system: string) => errors.find((e) => e.system === system)?.error ?? '';
    expect(errorOf('dead')).toContain(
      `plugin ${dead} is unreachable (connection refused): is it running? (after 2 attempts)`,
    );
    expect(errorOf('slow')).toContain(`plugin ${slow.address}: Summarize timed out after 300 ms`);
    expect(errorOf('empty')).toContain(`plugin ${empty.address} (test-plugin) returned an empty summary`);
  });

  it('refuses a plugin on a strategy plugins do not serve, and an address without a port', () => {
    const spec = (system: Record<string, unknown>, kind = 'text') => ({
      name: 'bad',
      datasets: [{ name: 'd', kind, path: story }],
      systems: [system],
      metrics: [{ name: kind === 'qmsum' ? 'rouge' : 'booookscore', judge: { engine: 'heuristic' } }],
    });
    expect(() =>
      validateSpec(
        builtInFamilies,
        spec({ name: 'p', strategy: 'hierarchical', plugin: { address: 'localhost' } }),
      ),
    ).toThrow('systems[0].plugin.address: expected host:port, e.g. 127.0.0.1:50170');
    // IPv6 in brackets.
    const v6 = validateSpec(
      builtInFamilies,
      spec({ name: 'p', strategy: 'hierarchical', plugin: { address: '[::1]:50170' } }),
    );
    expect((v6.systems[0] as { plugin?: { address: string } }).plugin?.address).toBe('[::1]:50170');
    expect(() =>
      validateSpec(
        builtInFamilies,
        spec({ name: 'p', strategy: 'hierarchical', plugin: { address: '::1:50170' } }),
      ),
    ).toThrow('systems[0].plugin.address: expected host:port, e.g. 127.0.0.1:50170');
    expect(() =>
      validateSpec(builtInFamilies, {
        ...spec({ name: 'p', strategy: 'rag', plugin: { address: '127.0.0.1:50170' } }, 'qmsum'),
        metrics: [{ name: 'rouge' }],
      }),
    ).toThrow(
      'systems[0].plugin: strategy "rag" is not served by summarizer plugins; plugins serve hierarchical, incremental, full-context',
    );
  });
});

describe("summarizer plugins in a service's run", () => {
  const REMOTE_TEXT = 'remote words';
  let h: RunHarness;
  let example: RunningPlugin;
  const servers: net.Server[] = [];
  const warnings: { msg: string; fields?: Record<string, unknown> }[] = [];
  const watch = connectionCounter();
  let watched: string;
  let garbage: string;
  let closed: string;

  beforeAll(async () => {
    example = await startExamplePlugin();
    const g = wordsThenHangUp(REMOTE_TEXT);
    servers.push(watch.server, g);
    watched = await listenLocal(watch.server);
    garbage = await listenLocal(g);
    closed = `127.0.0.1:${await freePort()}`;
    h = await startRunHarness('plugin_service_runs', {
      pluginAddresses: PluginAddressPolicy.parse(`${example.address},${garbage},${closed}`),
      logger: { info() {}, warn: (msg, fields) => warnings.push({ msg, fields }), error() {} },
    });
  });

  afterAll(async () => {
    for (const s of servers) s.close();
    await example?.stop();
    await h?.close();
  });

  it('refuses an unlisted address unconnected and stores closed and open ports alike', async () => {
    const r = await h.execute({
      name: 'plugin-policy',
      datasets: [{ name: 'story', kind: 'text', path: story }],
      systems: [
        { name: 'allowed', strategy: 'hierarchical', plugin: { address: example.address }, params: hier },
        { name: 'unlisted', strategy: 'hierarchical', plugin: { address: watched }, params: hier },
        {
          name: 'closed',
          strategy: 'hierarchical',
          plugin: { address: closed, maxRetries: 0 },
          params: hier,
        },
        {
          name: 'garbage',
          strategy: 'hierarchical',
          plugin: { address: garbage, maxRetries: 0 },
          params: hier,
        },
      ],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    });
    expect(r.progress.status).toBe('completed-with-failures');
    expect(r.progress.summaries).toMatchObject({ expected: 4, done: 1, failed: 3 });
    const errors: { system: string; error: string }[] = await h.db.query(
      `SELECT DISTINCT payload->>'system' AS system, error FROM tasks WHERE run_id = $1 AND status IN ('failed', 'dead') ORDER BY 1`,
      [r.run.id],
    );
    // One failed task per system (its first step), each failed at once: no redelivery fixes them.
    expect(errors).toEqual([
      { system: 'closed', error: `plugin ${closed} unreachable` },
      { system: 'garbage', error: `plugin ${garbage} unreachable` },
      {
        system: 'unlisted',
        error: `plugin address ${watched} is not allowed on this worker; the operator lists allowed ones in PRECIS_PLUGIN_ADDRESSES`,
      },
    ]);
    expect(watch.accepted()).toBe(0);
    const [run] = await h.db.query('SELECT error FROM runs WHERE id = $1', [r.run.id]);
    expect(JSON.stringify([run, errors])).not.toContain(REMOTE_TEXT);
    const [ledger] = await h.db.query(
      `SELECT string_agg(error, ' | ' ORDER BY error) AS errors FROM llm_calls WHERE run_id = $1 AND error IS NOT NULL`,
      [r.run.id],
    );
    expect(String(ledger.errors ?? '')).not.toContain(REMOTE_TEXT);
    // The detail goes to the service's log only.
    expect(warnings.find((w) => w.fields?.plugin === closed)).toMatchObject({
      msg: `plugin ${closed} unreachable`,
      fields: { detail: `plugin ${closed} is unreachable (connection refused): is it running?` },
    });
  });
});
