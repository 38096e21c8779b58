import { countCachedFailures, endedWithFailures } from '@precis/engine';
import type { DataSource } from 'typeorm';

// e.g. '2 failed tasks used cached model replies; `precis run spec.yaml --no-cache` asks the models again'.
export function cachedFailuresHint(count: number, command: string): string | null {
  if (count === 0) return null;
  const tasks = count === 1 ? '1 failed task' : `${count} failed tasks`;
  return `${tasks} used cached model replies; \`${command}\` asks the models again`;
}

// Only runs that ended with failures are worth the query.
export async function cachedFailuresLine(
  db: DataSource,
  run: { id: string; status: string },
  command: string,
): Promise<string | null> {
  if (!endedWithFailures(run.status)) return null;
  return cachedFailuresHint(await countCachedFailures(db, run.id), command);
}
