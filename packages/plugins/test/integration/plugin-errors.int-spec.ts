// What a failed plugin call says. A shared service (opaqueErrors) stores the same words for a
// closed port and for an open port that is no plugin (PostgreSQL, NATS, HTTP, anything), and
// never what the remote said; the embedded runtime and `precis plugin check` keep the detail.
import http from 'node:http';
import net from 'node:net';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SummaryRole } from '@precis/contracts';
import { MemoryLlmStore } from '@precis/llm';
import {
  listenLocal,
  type RunningPlugin,
  serveTestPlugin,
  wordsThenHangUp,
} from '../../../../test/support/plugins.js';
import { freePort } from '../../../service/test/support/service-process.js';
import { PluginCaller, PluginError } from '../../src/index.js';

const REMOTE_TEXT = 'secret remote words';

const step = {
  role: SummaryRole.SUMMARY_ROLE_CHUNK,
  texts: ['Mara keeps the light.'],
  priorContext: '',
  budgetWords: 20,
  params: {},
  documentId: 'd',
  level: 0,
  index: 0,
  system: 's',
};

// The call's failure, as the error it threw and the ledger row it left.
async function failure(address: string, opaqueErrors: boolean, timeoutMs = 5000) {
  const store = new MemoryLlmStore();
  const caller = new PluginCaller(store, { retryBaseMs: 5 });
  try {
    await caller.summarize({ address, timeoutMs, maxRetries: 1, maxConcurrency: 2 }, step, {
      runId: 'r',
      taskId: 't',
      cache: false,
      opaqueErrors,
    });
  } catch (err) {
    expect(err).toBeInstanceOf(PluginError);
    const e = err as PluginError;
    return { message: e.message, detail: e.detail, ledger: store.calls.map((c) => c.error) };
  } finally {
    caller.close();
  }
  throw new Error(`the call to ${address} succeeded`);
}

describe('plugin call failures', () => {
  const servers: net.Server[] = [];
  let closed: string;
  let garbage: string;
  let web: string;
  let postgres: string;
  let silent: string;
  const held: net.Socket[] = [];
  let failing: RunningPlugin;

  beforeAll(async () => {
    closed = `127.0.0.1:${await freePort()}`;
    const g = wordsThenHangUp(REMOTE_TEXT);
    const h = http.createServer((_req, res) => res.end(REMOTE_TEXT));
    // Accepts the connection and never says anything.
    const q = net.createServer((socket) => held.push(socket));
    servers.push(g, h, q);
    silent = await listenLocal(q);
    garbage = await listenLocal(g);
    web = await listenLocal(h);
    postgres = `127.0.0.1:${new URL(process.env.DATABASE_URL ?? 'postgres://127.0.0.1:5432').port || 5432}`;
    failing = await serveTestPlugin({
      describe: (_c, done) =>
        done(null, {
          name: REMOTE_TEXT,
          version: '1',
          description: '',
          roles: [],
          contextWindowTokens: 0,
          defaultParams: {},
        }),
      summarize: (_c, done) => done({ code: status.INVALID_ARGUMENT, details: REMOTE_TEXT }),
    });
  });

  afterAll(async () => {
    for (const socket of held) socket.destroy();
    for (const s of servers) s.close();
    await failing?.stop();
  });

  it('says "unreachable" alike for a closed port and for open ports that are no plugin', async () => {
    for (const address of [closed, garbage, web, postgres]) {
      const got = await failure(address, true);
      expect([address, got.message, got.ledger]).toEqual([address, `plugin ${address} unreachable`, []]);
      // The service log gets what happened.
      expect(got.detail).toMatch(
        new RegExp(`^plugin ${address} is unreachable \\(.+\\): is it running\\? \\(after 2 attempts\\)$`),
      );
    }
    expect((await failure(closed, true)).detail).toContain('(connection refused)');
    expect((await failure(garbage, true)).detail).toContain('(No connection established)');
  });

  it('says "unreachable" for an open port that never answers, though its Describe timed out', async () => {
    expect(await failure(silent, true, 300)).toEqual({
      message: `plugin ${silent} unreachable`,
      detail: `plugin ${silent}: Describe timed out after 300 ms (after 2 attempts)`,
      ledger: [],
    });
  });

  it("stores a plugin's failed call by its status, without the plugin's own words", async () => {
    const address = failing.address;
    const got = await failure(address, true);
    expect(got).toEqual({
      message: `plugin ${address}: Summarize failed with INVALID_ARGUMENT`,
      detail: `plugin ${address}: Summarize failed with INVALID_ARGUMENT: ${REMOTE_TEXT}`,
      ledger: [`PluginError: plugin ${address}: Summarize failed with INVALID_ARGUMENT`],
    });
  });

  it('keeps the detailed messages without opaqueErrors (embedded runs)', async () => {
    expect((await failure(closed, false)).message).toBe(
      `plugin ${closed} is unreachable (connection refused): is it running? (after 2 attempts)`,
    );
    expect((await failure(garbage, false)).message).toBe(
      `plugin ${garbage} is unreachable (No connection established): is it running? (after 2 attempts)`,
    );
    const got = await failure(failing.address, false);
    expect([got.message, got.detail, got.ledger]).toEqual([
      `plugin ${failing.address}: Summarize failed with INVALID_ARGUMENT: ${REMOTE_TEXT}`,
      undefined,
      [`PluginError: plugin ${failing.address}: Summarize failed with INVALID_ARGUMENT: ${REMOTE_TEXT}`],
    ]);
  });
});
