// The fake server's Batch API through the openai SDK: files.create (multipart, purpose batch),
// batches.create / retrieve / list / cancel, the real status sequence, output and error files in
// OpenAI's line format, a phase delay, per-request faults and a share of requests that expire.
import { afterEach, describe, expect, it } from '@jest/globals';
import OpenAI, { toFile } from 'openai';
import { type FakeLlmServer, startFakeLlmServer } from '../../src/index.js';

const servers: FakeLlmServer[] = [];
async function start(opts: Parameters<typeof startFakeLlmServer>[0] = {}) {
  const s = await startFakeLlmServer(opts);
  servers.push(s);
  return { server: s, sdk: new OpenAI({ baseURL: s.baseURL, apiKey: 'sk-test', maxRetries: 0 }) };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const line = (id: string, text: string, url = '/v1/chat/completions') =>
  JSON.stringify({
    custom_id: id,
    method: 'POST',
    url,
    body: { model: 'm1', messages: [{ role: 'user', content: text }] },
  });

async function submit(sdk: OpenAI, lines: string[]) {
  const file = await sdk.files.create({
    file: await toFile(Buffer.from(`${lines.join('\n')}\n`), 'in.jsonl'),
    purpose: 'batch',
  });
  return sdk.batches.create({
    input_file_id: file.id,
    endpoint: '/v1/chat/completions',
    completion_window: '24h',
  });
}

// Every status the batch showed while polled (after `first`, what creating it answered), until it
// ended.
async function follow(sdk: OpenAI, id: string, first?: string) {
  const seen: string[] = first ? [first] : [];
  for (;;) {
    const b = await sdk.batches.retrieve(id);
    if (seen.at(-1) !== b.status) seen.push(b.status);
    if (['completed', 'failed', 'expired', 'cancelled'].includes(b.status)) return { batch: b, seen };
    await new Promise((r) => setTimeout(r, 5));
  }
}

const rows = async (sdk: OpenAI, fileId: string | null | undefined) =>
  fileId
    ? (await (await sdk.files.content(fileId)).text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    : [];

describe('the fake Batch API', () => {
  it('goes validating, in_progress, finalizing, completed and writes one output line per request', async () => {
    // Phases long enough to be seen by a poll every 5 ms on a loaded machine.
    const { server, sdk } = await start({ batches: { delayMs: 300 } });
    const created = await submit(sdk, [line('a', 'one'), line('b', 'two'), line('c', 'three')]);
    expect(created.status).toBe('validating');
    const { batch, seen } = await follow(sdk, created.id, created.status);
    expect(seen).toEqual(['validating', 'in_progress', 'finalizing', 'completed']);
    expect(batch.request_counts).toEqual({ total: 3, completed: 3, failed: 0 });
    expect(batch.error_file_id).toBeNull();
    const out = await rows(sdk, batch.output_file_id);
    expect(
      out.map((r) => [r.custom_id, r.response.status_code, r.response.body.choices[0].message.content]),
    ).toEqual([
      ['a', 200, 'echo: one'],
      ['b', 200, 'echo: two'],
      ['c', 200, 'echo: three'],
    ]);
    const stats = server.stats();
    expect(stats.batches).toEqual({
      filesUploaded: 1,
      batchesCreated: 1,
      requestsAnswered: 3,
      requestsFailed: 0,
      requestsExpired: 0,
      batchesCancelled: 0,
    });
    expect(stats.completedChats).toBe(3);
    expect(stats.byPath['/v1/files']).toBe(1);
  });

  it('expires the configured share of requests and puts a faulted request in the error file', async () => {
    const { server, sdk } = await start({ batches: { expireShare: 0.1 } });
    server.injectFault({ kind: 'status', status: 400, message: 'bad prompt (fake)' }, 1);
    const created = await submit(
      sdk,
      Array.from({ length: 20 }, (_, i) => line(`r${i}`, `text ${i}`)),
    );
    const { batch, seen } = await follow(sdk, created.id);
    expect(seen.at(-1)).toBe('expired');
    expect(batch.expired_at).not.toBeNull();
    expect(batch.request_counts).toEqual({ total: 20, completed: 17, failed: 3 });
    const errors = await rows(sdk, batch.error_file_id);
    expect(errors.map((r) => [r.custom_id, r.error?.code ?? r.response.status_code])).toEqual([
      ['r0', 400],
      ['r9', 'batch_expired'],
      ['r19', 'batch_expired'],
    ]);
    expect(errors[0].response.body.error.message).toBe('bad prompt (fake)');
    expect((await rows(sdk, batch.output_file_id)).length).toBe(17);
    expect(server.stats().batches.requestsExpired).toBe(2);
  });

  it('fails a batch whose input file has a bad line, naming each line', async () => {
    const { sdk } = await start({ batches: { delayMs: 30 } });
    const created = await submit(sdk, [
      line('a', 'one'),
      'not json',
      line('a', 'again'),
      line('d', 'x', '/v1/embeddings'),
    ]);
    const { batch, seen } = await follow(sdk, created.id, created.status);
    expect(seen).toEqual(['validating', 'failed']);
    expect(batch.errors?.data?.map((e) => [e.code, e.line])).toEqual([
      ['invalid_json_line', 2],
      ['duplicate_custom_id', 3],
      ['mismatched_endpoint', 4],
    ]);
    expect(batch.output_file_id).toBeNull();
  });

  it('cancels an open batch, refuses to cancel an ended one, and lists newest first', async () => {
    const { server, sdk } = await start({ batches: { delayMs: 50 } });
    const open = await submit(sdk, [line('a', 'one')]);
    const cancelling = await sdk.batches.cancel(open.id);
    expect(cancelling.status).toBe('cancelling');
    const { batch, seen } = await follow(sdk, open.id, cancelling.status);
    expect(seen).toEqual(['cancelling', 'cancelled']);
    expect(batch.cancelled_at).not.toBeNull();
    await expect(sdk.batches.cancel(open.id)).rejects.toThrow(
      "Cannot cancel a batch with status 'cancelled'.",
    );
    await expect(sdk.batches.retrieve('batch_nope')).rejects.toThrow("No batch found with id 'batch_nope'.");
    const second = await submit(sdk, [line('b', 'two')]);
    const page = await sdk.batches.list({ limit: 1 });
    expect([page.data.map((b) => b.id), page.has_more]).toEqual([[second.id], true]);
    expect(server.stats().batches.batchesCancelled).toBe(1);
    expect(server.stats().completedChats).toBe(0);
  });
});
