import type { DataSource } from 'typeorm';

// The readiness probe's one statement: proves the database answers (connection and server).
export async function pingDatabase(db: DataSource): Promise<void> {
  await db.query('SELECT 1');
}
