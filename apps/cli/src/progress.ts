import type { ImportProgress } from '@precis/ingest';
import { Presets, SingleBar } from 'cli-progress';

export interface ProgressSink {
  update(progress: ImportProgress): void;
  stop(): void;
}

// A bar on stderr when it is a terminal; otherwise one plain line per phase, so logs and pipes
// stay readable and stdout stays clean for --json.
export function importProgress(stream: NodeJS.WriteStream, label: string): ProgressSink {
  if (stream.isTTY) {
    const bar = new SingleBar(
      { stream, format: `${label} {phase} [{bar}] {value}/{total} records | {rows} rows`, hideCursor: true },
      Presets.shades_classic,
    );
    let started = false;
    return {
      update(p) {
        const total = p.totalRecords ?? Math.max(p.recordsParsed, 1);
        const value = p.phase === 'parse' ? p.recordsParsed : p.recordsInserted;
        const payload = {
          phase: p.phase === 'done' ? 'done  ' : p.phase === 'parse' ? 'parse ' : 'insert',
          rows: p.rowsInserted,
        };
        if (!started) {
          bar.start(total, value, payload);
          started = true;
        } else {
          bar.setTotal(total);
          bar.update(value, payload);
        }
      },
      stop() {
        if (started) bar.stop();
      },
    };
  }
  let lastPhase: ImportProgress['phase'] | undefined;
  return {
    update(p) {
      if (p.phase === lastPhase) return;
      lastPhase = p.phase;
      if (p.phase === 'insert') stream.write(`${label}: parsed ${p.recordsParsed} records, writing...\n`);
      if (p.phase === 'done')
        stream.write(`${label}: wrote ${p.recordsInserted} records (${p.rowsInserted} rows)\n`);
    },
    stop() {},
  };
}
