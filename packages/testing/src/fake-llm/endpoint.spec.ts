import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { FakeEndpoint } from './endpoint.js';
import type { FakeRequestRecord } from './types.js';

// Just enough of node's request and response for FakeEndpoint.handle, without a socket.
function exchange(method: string, url: string) {
  const req = { method, url, headers: {} } as unknown as IncomingMessage;
  const res = Object.assign(new EventEmitter(), {
    headersSent: false,
    statusCode: 0,
    text: '',
    writeHead(status: number) {
      res.statusCode = status;
      res.headersSent = true;
    },
    end(text: string) {
      res.text = text;
      res.emit('close');
    },
  });
  return { req, res: res as unknown as ServerResponse & { text: string }, json: () => JSON.parse(res.text) };
}

describe('FakeEndpoint GET /_fake/requests', () => {
  it('returns the logged chat requests with their bodies, and is not logged itself', async () => {
    const endpoint = new FakeEndpoint({ reply: '<score>4</score>' });
    const body = {
      model: 'judge',
      messages: [{ role: 'user', content: 'Rate it.' }],
      temperature: 0,
      max_tokens: 16,
    };
    const chat = exchange('POST', '/v1/chat/completions');
    await endpoint.handle(chat.req, chat.res, JSON.stringify(body), Date.now());
    expect(chat.res.statusCode).toBe(200);

    const first = exchange('GET', '/_fake/requests');
    await endpoint.handle(first.req, first.res, '', Date.now());
    const log = first.json() as FakeRequestRecord[];
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      model: 'judge',
      status: 200,
    });
    expect(log[0]!.body).toEqual(body);

    const second = exchange('GET', '/_fake/requests?again=1');
    await endpoint.handle(second.req, second.res, '', Date.now());
    expect(second.json()).toHaveLength(1);
    expect(endpoint.book.snapshot(endpoint.slots).total).toBe(1);
  });

  it('keeps only the last maxLoggedRequests requests', async () => {
    const endpoint = new FakeEndpoint({ maxLoggedRequests: 2 });
    for (const n of [1, 2, 3]) {
      const chat = exchange('POST', '/v1/chat/completions');
      const body = { model: 'm', messages: [{ role: 'user', content: `request ${n}` }] };
      await endpoint.handle(chat.req, chat.res, JSON.stringify(body), Date.now());
    }
    const list = exchange('GET', '/_fake/requests');
    await endpoint.handle(list.req, list.res, '', Date.now());
    const log = list.json() as FakeRequestRecord[];
    expect(log.map((r) => (r.body as { messages: { content: string }[] }).messages[0]!.content)).toEqual([
      'request 2',
      'request 3',
    ]);
  });
});
