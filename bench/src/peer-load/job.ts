import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FakeRequestRecord } from '@precis/testing';

// The one judge job every tool runs: SummEval-OP candidates, the 7-dimension Op-I judge, one
// sample (one call per (summary, dimension), no `n` batching), against one fake endpoint.
export const repo = resolve(import.meta.dirname, '../../..');
export const DATASET = resolve(repo, '../shared/datasets/summeval-op/summeval-op.jsonl');
export const PRECIS_CLI = resolve(repo, 'apps/cli/bin/precis.js');
// A judge answer Precis's score parser accepts (as judge-sweep's --reply).
export const JUDGE_REPLY = 'The summary follows the metric for the most part. <score>4</score>';
export const JUDGE_MODEL = 'judge';
// 13 candidate summaries per product x 7 dimensions.
export const CALLS_PER_PRODUCT = 91;

export interface JobOptions {
  products: number;
  capacity: number;
  latencyMs: number;
}

export function jobSpec(products: number): Record<string, unknown> {
  return {
    name: 'peer-load',
    datasets: [{ name: 'summeval-op', kind: 'summeval-op', path: DATASET, limit: products }],
    systems: [{ name: 'candidates', source: 'dataset' }],
    metrics: [{ name: 'dimensions', family: 'op-i', judge: { model: JUDGE_MODEL }, samples: 1 }],
  };
}

// maxConcurrency = the endpoint's capacity, so Precis may keep every slot busy and no more.
export function registry(baseURL: string, capacity: number): Record<string, unknown> {
  return {
    models: {
      [JUDGE_MODEL]: {
        baseURL,
        model: JUDGE_MODEL,
        contextWindow: 32000,
        maxConcurrency: capacity,
        timeoutMs: 600_000,
      },
    },
  };
}

export function idealMs(calls: number, job: JobOptions): number {
  return (calls * job.latencyMs) / job.capacity;
}

export interface Scratch {
  dir: string;
  write(name: string, data: unknown): string;
  remove(): void;
}

export function scratch(prefix: string): Scratch {
  const dir = mkdtempSync(join(tmpdir(), `precis-peer-load-${prefix}-`));
  return {
    dir,
    write(name, data) {
      const file = join(dir, name);
      writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data, null, 1));
      return file;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

interface ChatBody {
  messages?: { role: string; content: string }[];
  max_tokens?: number;
  temperature?: number;
}

// Precis's preflight: one `ping` with max_tokens 1 per endpoint before any task.
export function isPreflight(rec: FakeRequestRecord): boolean {
  const body = rec.body as ChatBody;
  return body.max_tokens === 1 && body.messages?.length === 1 && body.messages[0]?.content === 'ping';
}

export function chatCalls(log: FakeRequestRecord[]): FakeRequestRecord[] {
  return log.filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions' && r.status === 200);
}

export function judgeCalls(log: FakeRequestRecord[]): FakeRequestRecord[] {
  return chatCalls(log).filter((r) => !isPreflight(r));
}

// What a model sees and is asked for; two tools sending the same prompts agree on these.
export function promptKey(rec: FakeRequestRecord): string {
  const b = rec.body as ChatBody & { model?: string };
  return JSON.stringify([b.model, b.messages, b.temperature ?? null, b.max_tokens ?? null]);
}

// How many of `log`'s judge requests match a request of `reference` one for one (a multiset).
export function matchingPrompts(reference: FakeRequestRecord[], log: FakeRequestRecord[]): number {
  const left = new Map<string, number>();
  for (const r of reference) left.set(promptKey(r), (left.get(promptKey(r)) ?? 0) + 1);
  let matched = 0;
  for (const r of log) {
    const n = left.get(promptKey(r)) ?? 0;
    if (n > 0) {
      matched++;
      left.set(promptKey(r), n - 1);
    }
  }
  return matched;
}
