import type { DestinationStream } from 'pino';

const BELOW_WARN = /^\{"level":"(trace|debug|info)"/;

export interface BootGate {
  destination: DestinationStream;
  // From now on every line passes.
  open(): void;
}

// Drops lines below warn until opened: `precis serve` prints its URL and key before any log
// line, and problems during start still show.
export function bootGate(target: DestinationStream): BootGate {
  let opened = false;
  return {
    destination: {
      write(line: string) {
        if (opened || !BELOW_WARN.test(line)) target.write(line);
      },
    },
    open() {
      opened = true;
    },
  };
}
