import { z } from 'zod';
import { checker, type Fail, fieldMap, got, show } from './field-checks.js';

// A model's registry `batch` block (issue 39): its provider answers OpenAI-format batch files at a
// discount, so calls of the stages a spec lists in limits.batch may wait for a batch.
export interface BatchSettings {
  // Share of the online price the provider takes off (0.5: half price), in 1e-4 steps.
  discount: string;
  discountBasisPoints: bigint;
  // Most requests and bytes one batch file may hold (OpenAI: 50,000 and 200 MB).
  maxRequests: number;
  maxBytes: number;
  // The window the provider is asked to answer within ('24h' is what OpenAI accepts).
  completionWindow: string;
  // How often an open batch is polled, and how long parked calls are gathered once they stop
  // arriving (and their stage has no task left to park more) before they are sent as one batch.
  pollSeconds: number;
  gatherSeconds: number;
  // Requests a batch left unanswered when it expired: into the next batch, or sent online.
  onExpiry: 'batch' | 'online';
}

const FIELDS = [
  'enabled',
  'discount',
  'maxRequests',
  'maxBytes',
  'completionWindow',
  'pollSeconds',
  'gatherSeconds',
  'onExpiry',
];
const UNITS: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9 };
const int = z.number().int().min(1);
const seconds = z.number().min(0.01).max(86_400);
const discountText = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const m = /^0(?:\.(\d{1,4}))?$|^1(?:\.0{1,4})?$/.exec(String(v).trim());
  if (!m) ctx.addIssue({ code: 'custom', message: 'bad discount' });
  return String(v).trim();
});

// "200MB", "1.5 GB", 1000000 -> bytes; null when not a size.
export function parseByteSize(v: unknown): number | null {
  if (typeof v === 'number') return Number.isInteger(v) && v > 0 ? v : null;
  if (typeof v !== 'string') return null;
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(v.trim());
  if (!m) return null;
  const bytes = Math.floor(Number(m[1]) * UNITS[(m[2] ?? 'b').toLowerCase()]!);
  return bytes > 0 ? bytes : null;
}

// The entry's batch settings (null: batches off), reporting each wrong field through `fail`.
export function readBatchSettings(raw: unknown, fail: Fail): BatchSettings | null {
  if (raw === undefined || raw === null || raw === false) return null;
  const at = (field: string) => `batch.${field}`;
  const check = checker((field, message) => fail(at(field), message));
  const parsed = fieldMap.safeParse(raw);
  if (!parsed.success) {
    fail('batch', `must be a map such as { enabled: true, discount: 0.5 } (got ${show(raw)})`);
    return null;
  }
  const b = parsed.data;
  for (const k of Object.keys(b))
    if (!FIELDS.includes(k)) fail(at(k), `unknown field (known: ${FIELDS.join(', ')})`);
  const enabled = check('enabled', b.enabled ?? true, z.boolean(), got('must be true or false'));
  const discount =
    check('discount', b.discount ?? 0.5, discountText, got('must be a share between 0 and 1, e.g. 0.5')) ??
    '0.5';
  const maxBytes = b.maxBytes === undefined ? 200e6 : parseByteSize(b.maxBytes);
  if (maxBytes === null)
    fail(at('maxBytes'), `must be a size such as 200MB or 1000000 (got ${show(b.maxBytes)})`);
  const window = check(
    'completionWindow',
    b.completionWindow ?? '24h',
    z.string().regex(/^\d+h$/),
    got('must be hours such as "24h"'),
  );
  const onExpiry = check(
    'onExpiry',
    b.onExpiry ?? 'batch',
    z.enum(['batch', 'online']),
    got('must be "batch" or "online"'),
  );
  if (!enabled) return null;
  const [whole, frac = ''] = discount.split('.');
  return {
    discount,
    discountBasisPoints: BigInt(whole!) * 10_000n + BigInt(frac.padEnd(4, '0')),
    maxRequests: check('maxRequests', b.maxRequests ?? 50_000, int, got('must be an integer >= 1')) ?? 50_000,
    maxBytes: maxBytes ?? 200e6,
    completionWindow: window ?? '24h',
    pollSeconds:
      check('pollSeconds', b.pollSeconds ?? 60, seconds, got('must be seconds (0.01 to 86400)')) ?? 60,
    gatherSeconds:
      check('gatherSeconds', b.gatherSeconds ?? 5, seconds, got('must be seconds (0.01 to 86400)')) ?? 5,
    onExpiry: onExpiry ?? 'batch',
  };
}

// A cost in 1e-10 USD units at the batch price (the discount taken off, rounded down).
export function batchCostUnits(onlineUnits: bigint, settings: BatchSettings): bigint {
  return (onlineUnits * (10_000n - settings.discountBasisPoints)) / 10_000n;
}
