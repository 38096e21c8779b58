import type { MigrationInterface, QueryRunner } from 'typeorm';

// Counters of a run's tasks per stage and of its summaries, kept by statement-level triggers so
// that every writer (planner, stage handlers, group commits, cancel) keeps them right without
// knowing of them, and progress never counts a run's rows. Counter rows are locked in
// (run, key) order, so concurrent statements cannot deadlock on them.
const COUNTER_UPSERT = `ON CONFLICT (run_id, key) DO UPDATE SET
      total = run_counters.total + EXCLUDED.total,
      done = run_counters.done + EXCLUDED.done,
      failed = run_counters.failed + EXCLUDED.failed`;

export class RunCounters1795300000000 implements MigrationInterface {
  name = 'RunCounters1795300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "run_counters" ("run_id" uuid NOT NULL, "key" text NOT NULL, "total" integer NOT NULL DEFAULT '0', "done" integer NOT NULL DEFAULT '0', "failed" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_49bd51c0aa14234bcb374e8ba3e" PRIMARY KEY ("run_id", "key"))`);
    await queryRunner.query(`
      CREATE TABLE "run_unit_failures" ("run_id" uuid NOT NULL, "unit" text NOT NULL, "task_id" text NOT NULL, "error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f10fecc5dee5454aadf0fe07f2f" PRIMARY KEY ("run_id", "unit"))`);
    await queryRunner.query(`ALTER TABLE "tasks" ADD "unit" text`);
    await queryRunner.query(
      `CREATE INDEX "ix_tasks_run_unit" ON "tasks"  ("run_id", "unit") WHERE unit IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "run_counters" ADD CONSTRAINT "FK_759e893ebf1f88ee8aa9911cf28" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "run_unit_failures" ADD CONSTRAINT "FK_0b63bf4a3db2b1f7dd155b7d9b9" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await this.createTriggers(queryRunner);
    await this.backfill(queryRunner);
  }

  private async createTriggers(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION precis_count_inserted_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO run_counters (run_id, key, total, done, failed)
        SELECT run_id, stage, count(*), count(*) FILTER (WHERE status = 'done'),
               count(*) FILTER (WHERE status IN ('failed', 'dead'))
        FROM inserted_rows WHERE run_id IS NOT NULL
        GROUP BY run_id, stage ORDER BY run_id, stage
        ${COUNTER_UPSERT};
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER tasks_count_inserted AFTER INSERT ON tasks REFERENCING NEW TABLE AS inserted_rows
      FOR EACH STATEMENT EXECUTE FUNCTION precis_count_inserted_tasks()`);
    await queryRunner.query(`
      CREATE FUNCTION precis_count_updated_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO run_counters (run_id, key, total, done, failed)
        SELECT n.run_id, n.stage, 0,
               sum((n.status = 'done')::int - (o.status = 'done')::int),
               sum((n.status IN ('failed', 'dead'))::int - (o.status IN ('failed', 'dead'))::int)
        FROM new_rows AS n JOIN old_rows AS o ON o.id = n.id
        WHERE n.run_id IS NOT NULL AND n.status IS DISTINCT FROM o.status
          AND ((n.status IN ('done', 'failed', 'dead')) OR (o.status IN ('done', 'failed', 'dead')))
        GROUP BY n.run_id, n.stage ORDER BY n.run_id, n.stage
        ${COUNTER_UPSERT};
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER tasks_count_updated AFTER UPDATE ON tasks
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION precis_count_updated_tasks()`);
    await queryRunner.query(`
      CREATE FUNCTION precis_count_summaries() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO run_counters (run_id, key, total, done, failed)
        SELECT run_id, 'summaries', 0,
               CASE WHEN TG_TABLE_NAME = 'summaries' THEN count(*) ELSE 0 END,
               CASE WHEN TG_TABLE_NAME = 'summaries' THEN 0 ELSE count(*) END
        FROM inserted_rows GROUP BY run_id ORDER BY run_id
        ${COUNTER_UPSERT};
        RETURN NULL;
      END $$`);
    for (const table of ['summaries', 'run_unit_failures'])
      await queryRunner.query(`
        CREATE TRIGGER ${table}_counted AFTER INSERT ON ${table} REFERENCING NEW TABLE AS inserted_rows
        FOR EACH STATEMENT EXECUTE FUNCTION precis_count_summaries()`);
  }

  // Runs made before this migration get their counters from their rows, once.
  private async backfill(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      INSERT INTO run_counters (run_id, key, total, done, failed)
      SELECT run_id, stage, count(*), count(*) FILTER (WHERE status = 'done'),
             count(*) FILTER (WHERE status IN ('failed', 'dead'))
      FROM tasks WHERE run_id IS NOT NULL GROUP BY run_id, stage`);
    await queryRunner.query(`
      INSERT INTO run_counters (run_id, key, total, done, failed)
      SELECT run_id, 'summaries', count(*), count(*), 0 FROM summaries GROUP BY run_id`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['summaries', 'run_unit_failures'])
      await queryRunner.query(`DROP TRIGGER ${table}_counted ON ${table}`);
    await queryRunner.query(`DROP TRIGGER tasks_count_updated ON tasks`);
    await queryRunner.query(`DROP TRIGGER tasks_count_inserted ON tasks`);
    await queryRunner.query(`DROP FUNCTION precis_count_summaries()`);
    await queryRunner.query(`DROP FUNCTION precis_count_updated_tasks()`);
    await queryRunner.query(`DROP FUNCTION precis_count_inserted_tasks()`);
    await queryRunner.query(
      `ALTER TABLE "run_unit_failures" DROP CONSTRAINT "FK_0b63bf4a3db2b1f7dd155b7d9b9"`,
    );
    await queryRunner.query(`ALTER TABLE "run_counters" DROP CONSTRAINT "FK_759e893ebf1f88ee8aa9911cf28"`);
    await queryRunner.query(`DROP INDEX "ix_tasks_run_unit"`);
    await queryRunner.query(`ALTER TABLE "tasks" DROP COLUMN "unit"`);
    await queryRunner.query(`DROP TABLE "run_unit_failures"`);
    await queryRunner.query(`DROP TABLE "run_counters"`);
  }
}
