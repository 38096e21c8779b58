import { writeFileSync } from 'node:fs';
import { formatTextTable } from '@precis/text';
import type { DatasetView } from './runtime/ingestion-port.js';

export interface Output {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WriteStream;
}

// A rendered report to the --out file (saying so on stderr), or else to stdout.
export function writeOutput(out: Output, text: string, file: string | undefined): void {
  if (file) {
    writeFileSync(file, text);
    out.stderr.write(`wrote ${file}\n`);
  } else out.stdout.write(text);
}

export function printJson(out: Output, value: unknown): void {
  out.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function formatTable(headers: string[], rows: string[][]): string {
  return formatTextTable(headers, rows);
}

export function formatCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}

export function datasetsTable(datasets: DatasetView[]): string {
  if (datasets.length === 0)
    return 'no datasets yet; import one with `precis ingest <kind> <path> --dataset <name>`';
  return formatTable(
    ['NAME', 'KIND', 'DOCUMENTS', 'CREATED', 'SOURCE'],
    datasets.map((d) => [
      d.name,
      d.kind,
      String(d.counts.documents ?? ''),
      d.createdAt?.replace(/\.\d+Z$/, 'Z') ?? '',
      d.sourcePath,
    ]),
  );
}

export function datasetDetails(d: DatasetView): string {
  const lines = [
    `name:     ${d.name}`,
    `kind:     ${d.kind}`,
    `source:   ${d.sourcePath}`,
    `sha256:   ${d.sourceSha256}`,
    `created:  ${d.createdAt ?? '-'}`,
    `updated:  ${d.updatedAt ?? '-'}`,
    'counts:',
    ...Object.entries(d.counts).map(([k, v]) => `  ${k.padEnd(22)} ${v}`),
  ];
  if (d.stored) {
    lines.push('stored rows:', `  ${'documents'.padEnd(22)} ${d.stored.documents}`);
    for (const [kind, n] of Object.entries(d.stored.chunks))
      lines.push(`  ${`${kind} chunks`.padEnd(22)} ${n}`);
    if (d.stored.corpusDocuments > 0)
      lines.push(`  ${'corpus documents'.padEnd(22)} ${d.stored.corpusDocuments}`);
  }
  return lines.join('\n');
}
