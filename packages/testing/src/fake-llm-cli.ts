#!/usr/bin/env node
// Runs the fake OpenAI-compatible server as its own process and prints one JSON line with its URL.
// npm run fake-llm -- --port 0 --latency 100 --capacity 64 [--reply TEXT] [--rules rules.json]
//   [--fault rate-limit:3@1] [--fault hang:1] [--fault-rate 0.1 --seed 7 [--fault-kinds rate-limit,hang]]
//   [--api-key KEY] [--embedding-dim 64]
import { parseArgs } from 'node:util';
import { parseFaultSpec } from './fake-llm/fault-spec.js';
import { loadRulesFile } from './fake-llm/rules-file.js';
import { startFakeLlmServer } from './fake-llm/server.js';
import type { FakeFault } from './fake-llm/types.js';

function randomKind(spec: string): FakeFault {
  if (spec.includes(':')) throw new Error(`--fault-kinds "${spec}": a kind takes no count here`);
  return parseFaultSpec(spec).fault;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
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

main().catch((err: Error) => {
  process.stderr.write(`fake-llm: ${err.message}\n`);
  process.exit(2);
});
