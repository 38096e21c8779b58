import type { DataSource } from 'typeorm';

// The SQL of the cluster-wide limits: slots in llm_slots (pg-slot-pool.ts) and per-minute
// request/token windows in llm_rate_windows (pg-shared-limits.ts).

// Counts one call of `tokens` in the endpoint's current minute, unless it would pass the
// requests (rpm) or tokens (tpm) limit; whether it was counted.
export async function countInRateWindow(
  db: DataSource,
  endpoint: string,
  tokens: number,
  rpm: number | null,
  tpm: number | null,
): Promise<boolean> {
  const rows: unknown[] = await db.query(
    `INSERT INTO llm_rate_windows AS w (endpoint, window_start, requests, tokens)
         VALUES ($1, date_trunc('minute', now()), 1, $2)
         ON CONFLICT (endpoint, window_start) DO UPDATE
           SET requests = w.requests + 1, tokens = w.tokens + EXCLUDED.tokens
           WHERE ($3::int IS NULL OR w.requests + 1 <= $3) AND ($4::bigint IS NULL OR w.tokens + EXCLUDED.tokens <= $4)
         RETURNING 1`,
    [endpoint, tokens, rpm, tpm],
  );
  return rows.length > 0;
}

// Milliseconds until the database clock's next minute.
export async function msToNextMinute(db: DataSource): Promise<number> {
  const [next] = await db.query(
    `SELECT EXTRACT(EPOCH FROM (date_trunc('minute', now()) + interval '1 minute' - now())) * 1000 AS ms`,
  );
  return Number(next.ms);
}

// Drops the rate windows older than an hour.
export async function deleteOldRateWindows(db: DataSource): Promise<void> {
  await db.query(`DELETE FROM llm_rate_windows WHERE window_start < now() - interval '1 hour'`);
}

// Creates the endpoint's slot rows 0..capacity-1 that do not exist yet.
export async function ensureSlots(db: DataSource, endpoint: string, capacity: number): Promise<void> {
  await db.query(
    `INSERT INTO llm_slots (endpoint, slot) SELECT $1, g FROM generate_series(0, $2 - 1) AS g ON CONFLICT DO NOTHING`,
    [endpoint, capacity],
  );
}

// Leases a free (or expired) slot below `capacity` to `holder` for `leaseMs`; its number, or
// null when all are held.
export async function claimSlot(
  db: DataSource,
  endpoint: string,
  capacity: number,
  holder: string,
  leaseMs: number,
): Promise<number | null> {
  const res = await db.query(
    `UPDATE llm_slots AS s SET holder = $3, expires_at = now() + $4 * interval '1 millisecond'
       FROM (SELECT slot FROM llm_slots
             WHERE endpoint = $1 AND slot < $2 AND (holder IS NULL OR expires_at < now())
             ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED) AS free
       WHERE s.endpoint = $1 AND s.slot = free.slot
       RETURNING s.slot`,
    [endpoint, capacity, holder, leaseMs],
  );
  // TypeORM's postgres driver gives an UPDATE's result as [rows, count]; others give the rows.
  const rows = (Array.isArray(res[0]) ? res[0] : res) as { slot: number }[];
  return rows[0] ? Number(rows[0].slot) : null;
}

// Frees the slot if `holder` still holds it.
export async function releaseSlot(
  db: DataSource,
  endpoint: string,
  slot: number,
  holder: string,
): Promise<void> {
  await db.query(
    `UPDATE llm_slots SET holder = NULL, expires_at = NULL WHERE endpoint = $1 AND slot = $2 AND holder = $3`,
    [endpoint, slot, holder],
  );
}
