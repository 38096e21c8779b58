// A plugin's maxConcurrency holds across processes when their callers share the cluster's limits
// (PostgreSQL leases, as model endpoints do): two callers, standing in for two service processes,
// never have more than the cap in flight at the plugin together.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SummaryRole } from '@precis/contracts';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { LimiterRegistry, MemoryLlmStore, PgSharedLimits } from '@precis/llm';
import type { DataSource } from 'typeorm';
import { type RunningPlugin, serveTestPlugin } from '../../../../test/support/plugins.js';
import { PluginCaller } from '../../src/index.js';

describe('plugin limits across processes', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let plugin: RunningPlugin;
  let address: string;
  let inFlight = 0;
  let most = 0;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('plugin_limits');
    db = await createDataSource({ url: tdb.url });
    plugin = await serveTestPlugin({
      describe: (_c, done) =>
        done(null, {
          name: 'slow',
          version: '1',
          description: '',
          roles: [],
          contextWindowTokens: 0,
          defaultParams: {},
        }),
      summarize: (call, done) => {
        inFlight++;
        most = Math.max(most, inFlight);
        setTimeout(() => {
          inFlight--;
          done(null, {
            text: `summary of ${call.request.texts[0]}`,
            usage: undefined,
            producer: 'slow@1',
            metadataJson: '',
          });
        }, 150);
      },
    });
    address = plugin.address;
  });

  afterAll(async () => {
    await plugin?.stop();
    await db?.destroy();
    await tdb?.drop();
  });

  it('keeps two callers sharing the cluster limits to maxConcurrency calls at the plugin', async () => {
    const target = { address, timeoutMs: 5000, maxRetries: 0, maxConcurrency: 2 };
    const stores = [new MemoryLlmStore(), new MemoryLlmStore()];
    const callers = stores.map(
      (store) => new PluginCaller(store, { limiters: new LimiterRegistry(new PgSharedLimits(db)) }),
    );
    const step = (n: number) => ({
      role: SummaryRole.SUMMARY_ROLE_CHUNK,
      texts: [`chunk ${n}`],
      priorContext: '',
      budgetWords: 20,
      params: {},
      documentId: 'd',
      level: 0,
      index: n,
      system: 's',
    });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        callers[n % 2]!.summarize(target, step(n), { runId: 'r', taskId: `t${n}`, cache: false }),
      ),
    );
    expect(answers.map((a) => a.text)).toEqual(Array.from({ length: 12 }, (_, n) => `summary of chunk ${n}`));
    expect(most).toBe(2);
    const totals = await Promise.all(stores.map((s) => s.totals()));
    expect(totals.map((t) => [t.calls, t.errors])).toEqual([
      [6, 0],
      [6, 0],
    ]);
    for (const c of callers) c.close();
  });
});
