// The SDK's fetch (node:http with keep-alive): statuses, headers and bodies as fetch gives them,
// a body cut short failing only when read, redirects followed through the global fetch.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { httpFetch } from '../../src/client/http-fetch.js';

describe('httpFetch', () => {
  let server: http.Server;
  let base: string;
  const seen: { method?: string; auth?: string; body: string }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method, auth: req.headers.authorization, body });
        if (req.url === '/moved') {
          res.writeHead(307, { location: '/json' }).end();
        } else if (req.url === '/cut') {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
          res.write('{"half":');
          setTimeout(() => res.socket?.destroy(), 20);
        } else {
          res.writeHead(req.url === '/json' ? 200 : 429, {
            'content-type': 'application/json',
            'retry-after': '2',
          });
          res.end(JSON.stringify({ echo: body }));
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends method, headers and body, and answers status, headers and JSON', async () => {
    const res = await httpFetch(`${base}/json`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"q":1}',
    });
    expect([res.ok, res.status, res.headers.get('content-type')]).toEqual([true, 200, 'application/json']);
    expect(await res.json()).toEqual({ echo: '{"q":1}' });
    expect(seen.at(-1)).toEqual({ method: 'POST', auth: 'Bearer k', body: '{"q":1}' });
    const limited = await httpFetch(`${base}/busy`, { method: 'POST', body: 'x' });
    expect([limited.ok, limited.status, limited.headers.get('retry-after')]).toEqual([false, 429, '2']);
  });

  it('resolves on the headers and fails the read when the connection is cut mid-body', async () => {
    const res = await httpFetch(`${base}/cut`, { method: 'POST', body: '' });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow(/aborted|closed before the whole body/);
  });

  it('follows a redirect through the global fetch, and refuses an unreachable server', async () => {
    const res = await httpFetch(`${base}/moved`, { method: 'POST', body: 'again' });
    expect([res.status, await res.json()]).toEqual([200, { echo: 'again' }]);
    expect(seen.slice(-2).map((s) => s.body)).toEqual(['again', 'again']);
    await expect(httpFetch('http://127.0.0.1:1/x', { method: 'POST', body: '' })).rejects.toThrow(
      /ECONNREFUSED/,
    );
  });
});
