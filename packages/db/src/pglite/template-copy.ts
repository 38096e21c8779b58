import { copyFileSync, cpSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

// The directories initdb makes, empty in a fresh database: a copy that lost them (npm pack keeps
// no empty directory) would not start, so each copy makes them again.
const INITDB_DIRS = [
  'global',
  'base/1',
  'pg_wal/archive_status',
  'pg_wal/summaries',
  'pg_commit_ts',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_subtrans',
  'pg_twophase',
  'pg_multixact/members',
  'pg_multixact/offsets',
  'pg_replslot',
  'pg_tblspc',
  'pg_stat',
  'pg_stat_tmp',
  'pg_xact',
  'pg_logical/snapshots',
  'pg_logical/mappings',
];

// PG_VERSION goes last: a copy cut short leaves a directory without it, which is copied anew
// next time instead of being opened as a broken database.
export function copyTemplate(template: string, dataDir: string): void {
  for (const entry of readdirSync(template))
    if (entry !== 'PG_VERSION') cpSync(join(template, entry), join(dataDir, entry), { recursive: true });
  for (const dir of INITDB_DIRS) mkdirSync(join(dataDir, dir), { recursive: true });
  copyFileSync(join(template, 'PG_VERSION'), join(dataDir, 'PG_VERSION'));
}
