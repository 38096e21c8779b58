#!/usr/bin/env node
// Runs the fake OpenAI-compatible server as its own process and prints one JSON line with its URL.
// npm run fake-llm -- [--port 8787] --latency 100 --capacity 64 [--reply TEXT] [--rules rules.json]
//   [--fault rate-limit:3@1] [--fault hang:1] [--fault-rate 0.1 --seed 7 [--fault-kinds rate-limit,hang]]
//   [--api-key KEY] [--embedding-dim 64] [--profile NAME] [--cached-prompt-tokens N]
// --profile imitates a provider's OpenAI-compatible API (default generic: accepts everything):
//   openai (o1/o3/o4/gpt-5 refuse max_tokens, temperature/top_p != 1, logprobs; hidden reasoning
//   tokens), azure-openai (the same at /openai/deployments/{name}/...?api-version=, api-key
//   header; the printed baseURL ends in /openai), anthropic (n must be 1, logprobs/seed ignored),
//   gemini (no logprobs; gemini-2.5/3 hidden reasoning), vllm (<think> in the content of
//   qwen3/deepseek-r1/*think* models), ollama (one choice whatever n, no logprobs, <think>),
//   openrouter (one choice, message.reasoning, usage.cost). --cached-prompt-tokens fixes the
//   cached prompt tokens openai/azure-openai/openrouter report.
import { parseArgs } from 'node:util';
import { parseFaultSpec } from './fake-llm/fault-spec.js';
import { parseProfile } from './fake-llm/profiles.js';
import { loadRulesFile } from './fake-llm/rules-file.js';
import { startFakeLlmServer } from './fake-llm/server.js';
import type { FakeFault } from './fake-llm/types.js';

// Not 8080, where `precis serve` listens; examples/fake/models.yaml points here. --port 0: any free.
const DEFAULT_PORT = '8787';

function randomKind(spec: string): FakeFault {
  if (spec.includes(':')) throw new Error(`--fault-kinds "${spec}": a kind takes no count here`);
  return parseFaultSpec(spec).fault;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: DEFAULT_PORT },
      host: { type: 'string', default: '127.0.0.1' },
      latency: { type: 'string', default: '0' },
      capacity: { type: 'string', default: '1024' },
      reply: { type: 'string' },
      rules: { type: 'string' },
      fault: { type: 'string', multiple: true, default: [] },
      'fault-rate': { type: 'string' },
      // Kinds drawn at --fault-rate (each as in --fault, without a count); default 429, 500, 503.
      'fault-kinds': { type: 'string' },
      seed: { type: 'string', default: '1' },
      'api-key': { type: 'string' },
      'embedding-dim': { type: 'string', default: '64' },
      profile: { type: 'string', default: 'generic' },
      'cached-prompt-tokens': { type: 'string' },
      // The Batch API: how long each batch phase lasts (ms) and the share of requests that expire.
      'batch-delay': { type: 'string', default: '0' },
      'batch-expire-share': { type: 'string', default: '0' },
    },
    strict: true,
  });
  const num = (name: string, v: string) => {
    const n = Number(v);
    if (!Number.isFinite(n)) throw new Error(`--${name}: expected a number, got "${v}"`);
    return n;
  };
  const server = await startFakeLlmServer({
    port: num('port', values.port),
    host: values.host,
    latencyMs: num('latency', values.latency),
    capacity: num('capacity', values.capacity),
    reply: values.reply,
    rules: values.rules ? loadRulesFile(values.rules) : [],
    apiKey: values['api-key'],
    embeddingDim: num('embedding-dim', values['embedding-dim']),
    profile: parseProfile(values.profile),
    cachedPromptTokens:
      values['cached-prompt-tokens'] === undefined
        ? undefined
        : num('cached-prompt-tokens', values['cached-prompt-tokens']),
    batches: {
      delayMs: num('batch-delay', values['batch-delay']),
      expireShare: num('batch-expire-share', values['batch-expire-share']),
    },
    randomFaults:
      values['fault-rate'] === undefined
        ? undefined
        : {
            probability: num('fault-rate', values['fault-rate']),
            seed: num('seed', values.seed),
            kinds: values['fault-kinds']?.split(',').map((k) => randomKind(k)),
          },
  });
  for (const spec of values.fault) {
    const { fault, count } = parseFaultSpec(spec);
    server.injectFault(fault, count);
  }
  process.stdout.write(
    `${JSON.stringify({ url: server.url, baseURL: server.baseURL, port: server.port })}\n`,
  );
  const stop = () => {
    server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: Error & { code?: string; port?: number }) => {
  const message =
    err.code === 'EADDRINUSE'
      ? `port ${err.port} is in use (another fake-llm or server?): pass --port N, or --port 0 for any free port`
      : err.message;
  process.stderr.write(`fake-llm: ${message}\n`);
  process.exit(2);
});
