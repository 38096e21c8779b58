import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { FakeEndpoint, nonNegative, positiveInt } from './endpoint.js';
import { type FakeProviderProfile, PROFILE_BEHAVIOURS, parseProfile } from './profiles.js';
import { countChatPromptTokens } from './tokens.js';
import type {
  FakeFault,
  FakeFaultFilter,
  FakeLlmServerOptions,
  FakeLlmStats,
  FakeRandomFaults,
  FakeReply,
  FakeRequestRecord,
  FakeRule,
} from './types.js';

export interface FakeLlmServer {
  // e.g. http://127.0.0.1:40123/v1 — pass as the openai SDK's baseURL. With the azure-openai
  // profile it is http://127.0.0.1:40123/openai, AzureOpenAI's baseURL (or pass `endpoint: url`).
  readonly baseURL: string;
  url: string;
  port: number;
  stats(): FakeLlmStats;
  resetStats(): void;
  requests(): FakeRequestRecord[];
  setReply(text: string | undefined): void;
  setRules(rules: FakeRule[]): void;
  setLatency(ms: number): void;
  setCapacity(n: number): void;
  // Imitate another provider from the next request on (the prompt cache is kept).
  setProfile(profile: FakeProviderProfile): void;
  // Scripted replies, consumed one per choice, for one model or for any model.
  enqueueReplies(replies: FakeReply[], model?: string): void;
  // The next `count` requests matching `filter` fail with `fault`.
  injectFault(fault: FakeFault, count?: number, filter?: FakeFaultFilter): void;
  setRandomFaults(random: FakeRandomFaults | undefined): void;
  clearFaults(): void;
  // The Batch API's phase delay and expiring share from the next batch step on.
  setBatchOptions(opts: { delayMs?: number; expireShare?: number }): void;
  close(): Promise<void>;
}

function share(n: number): number {
  if (!(n >= 0 && n <= 1)) throw new Error(`fake LLM server: batches.expireShare must be in 0..1, got ${n}`);
  return n;
}

export async function startFakeLlmServer(opts: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
  const endpoint = new FakeEndpoint(opts);
  const { slots, replies, faults, book } = endpoint;
  if (opts.batches?.expireShare !== undefined) share(opts.batches.expireShare);
  if (opts.batches?.delayMs !== undefined) nonNegative(opts.batches.delayMs, 'batches.delayMs');
  // Load the tokenizer now (it takes most of a second): otherwise the first requests pay for it
  // inside their latency.
  countChatPromptTokens([{ role: 'user', content: 'warm-up' }]);
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      endpoint.handle(req, res, Buffer.concat(chunks).toString('utf8'), Date.now()).catch((err: Error) => {
        if (!res.headersSent) endpoint.sendError(res, 500, `fake server bug: ${err.message}`, 'server_error');
      });
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  const url = `http://${address}:${port}`;

  return {
    get baseURL() {
      return PROFILE_BEHAVIOURS[endpoint.profile].azure ? `${url}/openai` : `${url}/v1`;
    },
    url,
    port,
    stats: () => endpoint.snapshot(),
    resetStats: () => book.reset(),
    requests: () => book.log(),
    setReply: (text) => {
      replies.defaultReply = text;
    },
    setRules: (rules) => {
      replies.rules = rules;
    },
    setLatency: (ms) => {
      endpoint.latencyMs = nonNegative(ms, 'latencyMs');
    },
    setCapacity: (n) => {
      slots.capacity = positiveInt(n, 'capacity');
    },
    setProfile: (profile) => {
      endpoint.profile = parseProfile(profile);
    },
    enqueueReplies: (list, model) => replies.enqueue(list, model),
    injectFault: (fault, count, filter) => faults.inject(fault, count, filter),
    setRandomFaults: (random) => faults.setRandom(random),
    clearFaults: () => faults.clear(),
    setBatchOptions: ({ delayMs, expireShare }) => {
      if (delayMs !== undefined) endpoint.batches.delayMs = nonNegative(delayMs, 'batches.delayMs');
      if (expireShare !== undefined) endpoint.batches.expireShare = share(expireShare);
    },
    close: () =>
      new Promise<void>((resolve) => {
        endpoint.batches.close();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
