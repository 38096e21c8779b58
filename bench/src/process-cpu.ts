import { readdirSync, readFileSync } from 'node:fs';

// CPU seconds (user + system) of processes, from /proc: where a phase's time went (the services,
// the fake server, PostgreSQL and NATS share this machine's cores). `reaped`: with the children it
// has waited for (cutime + cstime), which hold its exited children's CPU.
export function cpuOf(pid: number | string, reaped = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(f[11]) + Number(f[12]);
    return (reaped ? own + Number(f[13]) + Number(f[14]) : own) / 100;
  } catch {
    return 0;
  }
}

// Every process of that name, with the children they reaped: a PostgreSQL backend that exits
// mid-phase (an idle pool connection closed) moves its CPU into the postmaster's, not out of sight.
export function cpuOfCommand(name: string): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name) total += cpuOf(pid, true);
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}
