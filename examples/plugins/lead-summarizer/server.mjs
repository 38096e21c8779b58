#!/usr/bin/env node
// An example summarizer plugin: a standalone process serving precis.v1.SummarizerService over
// gRPC. It summarizes by keeping the leading sentences of its inputs within the word budget, so it
// needs no model. Start it from the repository root:
//   node examples/plugins/lead-summarizer/server.mjs --port 50170
// and run examples/plugin.yaml, or test it with `npx precis plugin check 127.0.0.1:50170`.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import grpc, { Server, ServerCredentials } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '50170' }, host: { type: 'string', default: '127.0.0.1' } },
});
const protoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../../proto');
const definition = loadSync('precis/v1/summarizer.proto', {
  includeDirs: [protoRoot],
  longs: Number,
  enums: String,
  defaults: true,
});
const { SummarizerService } = grpc.loadPackageDefinition(definition).precis.v1;

const ROLES = [
  'SUMMARY_ROLE_CHUNK',
  'SUMMARY_ROLE_MERGE',
  'SUMMARY_ROLE_INITIAL',
  'SUMMARY_ROLE_UPDATE',
  'SUMMARY_ROLE_COMPRESS',
  'SUMMARY_ROLE_CLEAN',
  'SUMMARY_ROLE_FULL',
];

const words = (s) => s.split(/\s+/).filter(Boolean);

// The leading sentences that fit the budget (the first one cut to it when none fits whole).
function lead(text, budget) {
  const sentences = text
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?])\s+/)
    .filter(Boolean);
  if (budget <= 0) return sentences.join(' ');
  const kept = [];
  let used = 0;
  for (const s of sentences) {
    const n = words(s).length;
    if (used + n > budget) break;
    kept.push(s);
    used += n;
  }
  return kept.length
    ? kept.join(' ')
    : words(sentences[0] ?? '')
        .slice(0, budget)
        .join(' ');
}

function summarize(request) {
  const { role, texts, priorContext, budgetWords } = request;
  // An update keeps the running summary's lead and adds the new chunk's.
  const input = role === 'SUMMARY_ROLE_UPDATE' ? [priorContext, ...texts] : texts;
  const perText = role === 'SUMMARY_ROLE_MERGE' || role === 'SUMMARY_ROLE_UPDATE';
  const share =
    perText && budgetWords > 0 ? Math.max(1, Math.floor(budgetWords / input.length)) : budgetWords;
  const text = perText ? input.map((t) => lead(t, share)).join(' ') : lead(input.join(' '), budgetWords);
  return lead(text, budgetWords);
}

const server = new Server();
server.addService(SummarizerService.service, {
  Describe(_call, done) {
    done(null, {
      name: 'lead-summarizer',
      version: '1',
      description: 'Leading sentences within the word budget (an example plugin; no model)',
      roles: ROLES,
      contextWindowTokens: 0,
      defaultParams: {},
    });
  },
  Summarize(call, done) {
    const text = summarize(call.request);
    done(null, {
      text,
      usage: { promptTokens: 0, completionTokens: 0, costUsd: 0, calls: 0, cachedCalls: 0 },
      producer: 'lead-summarizer@1',
      metadataJson: '',
    });
  },
});

server.bindAsync(`${values.host}:${values.port}`, ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    console.error(`lead-summarizer: cannot listen on ${values.host}:${values.port}: ${err.message}`);
    process.exit(1);
  }
  console.log(`lead-summarizer listening on ${values.host}:${port}`);
});
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => server.tryShutdown(() => process.exit(0)));
