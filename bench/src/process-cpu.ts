import { readdirSync, readFileSync } from 'node:fs';

// CPU seconds (user + system) of processes, from /proc: where a phase's time went (the services,
// the fake server, PostgreSQL and NATS share this machine's cores).
export function cpuOf(pid: number | string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

export function cpuOfCommand(name: string): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name) total += cpuOf(pid);
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}
