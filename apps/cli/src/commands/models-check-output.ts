import type { CapabilityRow, ModelCheck } from '@precis/llm';
import { formatTable } from '../output.js';

const verdict = (r: CapabilityRow) => (!r.agrees ? 'MISMATCH' : r.either ? 'ok (either)' : 'ok');
const STATUS = { ok: 'ok', mismatch: 'MISMATCH', unusable: 'UNUSABLE' } as const;
const indent = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');

// One model: its table (capability, declared, observed, check), the notes that explain a row,
// and the registry lines that would match what the endpoint did.
export function renderModelCheck(c: ModelCheck): string {
  const what = c.kind === 'embedding' ? 'embedding model' : c.provider;
  const head = `model ${c.model} (${what}, ${c.modelId}) at ${c.baseURL}: ${STATUS[c.status]}, ${c.requests} request${c.requests === 1 ? '' : 's'}`;
  if (c.status === 'unusable') return `${head}\n  ${c.problem}\n`;
  const parts = [
    head,
    formatTable(
      ['CAPABILITY', 'DECLARED', 'OBSERVED', 'CHECK'],
      c.rows.map((r) => [r.capability, r.declared, r.observed, verdict(r)]),
    ),
  ];
  const notes = c.rows.filter((r) => r.note).map((r) => `${r.capability}: ${r.note}`);
  if (notes.length) parts.push(`notes:\n${indent(notes.join('\n'))}`);
  if (c.suggestion) parts.push(`registry lines that would match it:\n${indent(c.suggestion.yaml)}`);
  return `${parts.join('\n')}\n`;
}

export function renderModelChecks(checks: ModelCheck[]): string {
  const count = (s: ModelCheck['status']) => checks.filter((c) => c.status === s).length;
  const summary = `${checks.length} model${checks.length === 1 ? '' : 's'} checked: ${count('ok')} ok, ${count('mismatch')} disagreeing with the registry, ${count('unusable')} unusable`;
  return `${checks.map(renderModelCheck).join('\n')}\n${summary}\n`;
}
