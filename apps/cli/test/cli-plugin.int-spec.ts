// `precis plugin check` against the example plugin (its own process), a plugin that answers an
// empty summary, and an address where nothing listens.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SummaryRole } from '@precis/contracts';
import { freePort } from '../../../packages/service/test/support/service-process.js';
import { type RunningPlugin, serveTestPlugin, startExamplePlugin } from '../../../test/support/plugins.js';
import { runCli } from './run-cli.js';

describe('precis plugin check', () => {
  let example: RunningPlugin;
  let hollow: RunningPlugin;
  let address: string;
  let emptyAddress: string;

  beforeAll(async () => {
    example = await startExamplePlugin();
    address = example.address;
    hollow = await serveTestPlugin({
      describe: (_c, done) =>
        done(null, {
          name: 'hollow',
          version: '2',
          description: '',
          roles: [SummaryRole.SUMMARY_ROLE_CHUNK],
          contextWindowTokens: 0,
          defaultParams: {},
        }),
      summarize: (_c, done) => done(null, { text: '', usage: undefined, producer: '', metadataJson: '' }),
    });
    emptyAddress = hollow.address;
  });

  afterAll(async () => {
    await Promise.all([example?.stop(), hollow?.stop()]);
  });

  it('passes the example plugin on every role it declares', async () => {
    const r = await runCli(['plugin', 'check', address], {});
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      `plugin ${address}: lead-summarizer 1 (Leading sentences within the word budget (an example plugin; no model))`,
    );
    expect(lines.slice(1).map((l) => l.split(':')[0])).toEqual(
      ['CHUNK', 'MERGE', 'INITIAL', 'UPDATE', 'COMPRESS', 'CLEAN', 'FULL'].map(
        (r) => `ok    SUMMARY_ROLE_${r}`,
      ),
    );
  });

  it('fails a plugin whose summary is empty, and an address where nothing listens', async () => {
    const hollow = await runCli(['plugin', 'check', emptyAddress], {});
    expect(hollow.code).toBe(1);
    expect(hollow.stdout).toContain('FAIL  SUMMARY_ROLE_CHUNK: the summary is empty; no producer named');
    const dead = `127.0.0.1:${await freePort()}`;
    const none = await runCli(['plugin', 'check', dead, '--timeout-ms', '2000'], {});
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`plugin ${dead} is unreachable (connection refused): is it running?`);
    const bad = await runCli(['plugin', 'check', 'localhost'], {});
    expect([bad.code, bad.stderr]).toEqual([
      1,
      'precis: error: "localhost" is not host:port (e.g. 127.0.0.1:50170)\n',
    ]);
  });
});
