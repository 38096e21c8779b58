import type { MigrationInterface, QueryRunner } from 'typeorm';

// Every finished task of a run updated its stage's one counter row, so concurrent finishes
// queued on that row's lock (the hot row of issue 37). Counters are now split into 16 shards by
// the hash of the counted row's id; readers sum them. Rows are still locked in (run, key, shard)
// order, so concurrent statements cannot deadlock on them.
const SHARDS = 15; // mask: shards 0..15
const ENDED = `('done', 'failed', 'dead', 'cancelled')`;
const upsert = (key: string) => `ON CONFLICT (${key}) DO UPDATE SET
      total = run_counters.total + EXCLUDED.total,
      done = run_counters.done + EXCLUDED.done,
      failed = run_counters.failed + EXCLUDED.failed,
      cancelled = run_counters.cancelled + EXCLUDED.cancelled`;

// The three counting functions, sharded (`shard` is an SQL expression over the counted row) or
// not (the previous definitions, for down()).
function countingFunctions(sharded: boolean): string[] {
  const shard = (row: string) => (sharded ? `hashtext(${row}) & ${SHARDS}` : null);
  const cols = sharded ? 'run_id, key, shard' : 'run_id, key';
  const pick = (row: string) => (sharded ? `, ${shard(row)}` : '');
  return [
    `CREATE OR REPLACE FUNCTION precis_count_inserted_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO run_counters (${cols}, total, done, failed, cancelled)
        SELECT run_id, stage${pick('id')}, count(*), count(*) FILTER (WHERE status = 'done'),
               count(*) FILTER (WHERE status IN ('failed', 'dead')),
               count(*) FILTER (WHERE status = 'cancelled')
        FROM inserted_rows WHERE run_id IS NOT NULL
        GROUP BY 1, 2${sharded ? ', 3' : ''} ORDER BY 1, 2${sharded ? ', 3' : ''}
        ${upsert(cols)};
        RETURN NULL;
      END $$`,
    `CREATE OR REPLACE FUNCTION precis_count_updated_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO run_counters (${cols}, total, done, failed, cancelled)
        SELECT n.run_id, n.stage${pick('n.id')}, 0,
               sum((n.status = 'done')::int - (o.status = 'done')::int),
               sum((n.status IN ('failed', 'dead'))::int - (o.status IN ('failed', 'dead'))::int),
               sum((n.status = 'cancelled')::int - (o.status = 'cancelled')::int)
        FROM new_rows AS n JOIN old_rows AS o ON o.id = n.id
        WHERE n.run_id IS NOT NULL AND n.status IS DISTINCT FROM o.status
          AND (n.status IN ${ENDED} OR o.status IN ${ENDED})
        GROUP BY 1, 2${sharded ? ', 3' : ''} ORDER BY 1, 2${sharded ? ', 3' : ''}
        ${upsert(cols)};
        RETURN NULL;
      END $$`,
    // Summaries are keyed by id, unit failures by unit; plpgsql plans each branch on first use, so
    // the branch naming the other table's column is never planned.
    `CREATE OR REPLACE FUNCTION precis_count_summaries() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_TABLE_NAME = 'summaries' THEN
          INSERT INTO run_counters (${cols}, total, done, failed)
          SELECT run_id, 'summaries'${pick('id')}, 0, count(*), 0
          FROM inserted_rows GROUP BY 1${sharded ? ', 3' : ''} ORDER BY 1${sharded ? ', 3' : ''}
          ${upsert(cols)};
        ELSE
          INSERT INTO run_counters (${cols}, total, done, failed)
          SELECT run_id, 'summaries'${pick('unit')}, 0, 0, count(*)
          FROM inserted_rows GROUP BY 1${sharded ? ', 3' : ''} ORDER BY 1${sharded ? ', 3' : ''}
          ${upsert(cols)};
        END IF;
        RETURN NULL;
      END $$`,
  ];
}

export class ShardedRunCounters1795930000000 implements MigrationInterface {
  name = 'ShardedRunCounters1795930000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "run_counters" ADD "shard" smallint NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "run_counters" DROP CONSTRAINT "PK_49bd51c0aa14234bcb374e8ba3e"`);
    await queryRunner.query(
      `ALTER TABLE "run_counters" ADD CONSTRAINT "PK_23f6da099ac7ea54142c4cd6b64" PRIMARY KEY ("run_id", "key", "shard")`,
    );
    for (const sql of countingFunctions(true)) await queryRunner.query(sql);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of countingFunctions(false)) await queryRunner.query(sql);
    // The shards of each counter summed back into one row.
    await queryRunner.query(`
      UPDATE run_counters AS c SET total = s.total, done = s.done, failed = s.failed, cancelled = s.cancelled
      FROM (SELECT run_id, key, sum(total)::int AS total, sum(done)::int AS done, sum(failed)::int AS failed,
                   sum(cancelled)::int AS cancelled
            FROM run_counters GROUP BY run_id, key) AS s
      WHERE c.run_id = s.run_id AND c.key = s.key AND c.shard = 0`);
    await queryRunner.query(`
      INSERT INTO run_counters (run_id, key, shard, total, done, failed, cancelled)
      SELECT run_id, key, 0, sum(total), sum(done), sum(failed), sum(cancelled) FROM run_counters
      GROUP BY run_id, key HAVING bool_and(shard <> 0)`);
    await queryRunner.query(`DELETE FROM run_counters WHERE shard <> 0`);
    await queryRunner.query(`ALTER TABLE "run_counters" DROP CONSTRAINT "PK_23f6da099ac7ea54142c4cd6b64"`);
    await queryRunner.query(
      `ALTER TABLE "run_counters" ADD CONSTRAINT "PK_49bd51c0aa14234bcb374e8ba3e" PRIMARY KEY ("run_id", "key")`,
    );
    await queryRunner.query(`ALTER TABLE "run_counters" DROP COLUMN "shard"`);
  }
}
