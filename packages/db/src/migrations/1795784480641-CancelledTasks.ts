import type { MigrationInterface, QueryRunner } from 'typeorm';

const COUNTER_UPSERT = `ON CONFLICT (run_id, key) DO UPDATE SET
      total = run_counters.total + EXCLUDED.total,
      done = run_counters.done + EXCLUDED.done,
      failed = run_counters.failed + EXCLUDED.failed,
      cancelled = run_counters.cancelled + EXCLUDED.cancelled`;

const ENDED = `('done', 'failed', 'dead', 'cancelled')`;

// Tasks of a stopped or cancelled run end 'cancelled' (they are neither done nor failed): the
// counters count them apart, so a run that ended leaves no task open.
export class CancelledTasks1795784480641 implements MigrationInterface {
  name = 'CancelledTasks1795784480641';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "run_counters" ADD "cancelled" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION precis_count_inserted_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO run_counters (run_id, key, total, done, failed, cancelled)
        SELECT run_id, stage, count(*), count(*) FILTER (WHERE status = 'done'),
               count(*) FILTER (WHERE status IN ('failed', 'dead')),
               count(*) FILTER (WHERE status = 'cancelled')
        FROM inserted_rows WHERE run_id IS NOT NULL
        GROUP BY run_id, stage ORDER BY run_id, stage
        ${COUNTER_UPSERT};
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION precis_count_updated_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO run_counters (run_id, key, total, done, failed, cancelled)
        SELECT n.run_id, n.stage, 0,
               sum((n.status = 'done')::int - (o.status = 'done')::int),
               sum((n.status IN ('failed', 'dead'))::int - (o.status IN ('failed', 'dead'))::int),
               sum((n.status = 'cancelled')::int - (o.status = 'cancelled')::int)
        FROM new_rows AS n JOIN old_rows AS o ON o.id = n.id
        WHERE n.run_id IS NOT NULL AND n.status IS DISTINCT FROM o.status
          AND (n.status IN ${ENDED} OR o.status IN ${ENDED})
        GROUP BY n.run_id, n.stage ORDER BY n.run_id, n.stage
        ${COUNTER_UPSERT};
        RETURN NULL;
      END $$`);
    // Runs that ended before this migration: their open tasks end now, as they would have.
    await queryRunner.query(`
      UPDATE tasks AS t SET status = 'cancelled', finished_at = now(), updated_at = now()
      FROM runs AS r WHERE r.id = t.run_id AND r.status IN ('stopped', 'cancelled')
        AND t.status NOT IN ${ENDED}`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE tasks SET status = 'queued' WHERE status = 'cancelled'`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION precis_count_inserted_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO run_counters (run_id, key, total, done, failed)
        SELECT run_id, stage, count(*), count(*) FILTER (WHERE status = 'done'),
               count(*) FILTER (WHERE status IN ('failed', 'dead'))
        FROM inserted_rows WHERE run_id IS NOT NULL
        GROUP BY run_id, stage ORDER BY run_id, stage
        ON CONFLICT (run_id, key) DO UPDATE SET total = run_counters.total + EXCLUDED.total,
          done = run_counters.done + EXCLUDED.done, failed = run_counters.failed + EXCLUDED.failed;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION precis_count_updated_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO run_counters (run_id, key, total, done, failed)
        SELECT n.run_id, n.stage, 0,
               sum((n.status = 'done')::int - (o.status = 'done')::int),
               sum((n.status IN ('failed', 'dead'))::int - (o.status IN ('failed', 'dead'))::int)
        FROM new_rows AS n JOIN old_rows AS o ON o.id = n.id
        WHERE n.run_id IS NOT NULL AND n.status IS DISTINCT FROM o.status
          AND ((n.status IN ('done', 'failed', 'dead')) OR (o.status IN ('done', 'failed', 'dead')))
        GROUP BY n.run_id, n.stage ORDER BY n.run_id, n.stage
        ON CONFLICT (run_id, key) DO UPDATE SET total = run_counters.total + EXCLUDED.total,
          done = run_counters.done + EXCLUDED.done, failed = run_counters.failed + EXCLUDED.failed;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`ALTER TABLE "run_counters" DROP COLUMN "cancelled"`);
  }
}
