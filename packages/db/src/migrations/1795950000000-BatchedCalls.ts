import type { MigrationInterface, QueryRunner } from 'typeorm';

// Batch mode (issue 39): ledger rows say which calls went through a provider batch, which batch
// answered them and what they would have cost online; a parked call keeps the id of its ledger
// row (written at park time, at the batch price), a waiting task is told why its call failed,
// and waiting tasks, a task's waits and endpoints with batch work are indexed.

export class BatchedCalls1795950000000 implements MigrationInterface {
  name = 'BatchedCalls1795950000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "llm_batch_calls"
            ADD "ledger_id" uuid
        `);
    await queryRunner.query(`
            ALTER TABLE "llm_batch_waiters"
            ADD "error" text
        `);
    await queryRunner.query(`
            ALTER TABLE "llm_batch_waiters"
            ADD "http_status" integer
        `);
    await queryRunner.query(`
            ALTER TABLE "llm_batch_waiters"
            ADD "expired" boolean NOT NULL DEFAULT false
        `);
    await queryRunner.query(`
            ALTER TABLE "llm_calls"
            ADD "batched" boolean NOT NULL DEFAULT false
        `);
    await queryRunner.query(`
            ALTER TABLE "llm_calls"
            ADD "online_cost_usd" numeric(20, 10)
        `);
    await queryRunner.query(`
            ALTER TABLE "llm_calls"
            ADD "batch_id" uuid
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_llm_batch_calls_pending" ON "llm_batch_calls" ("endpoint", "model")
            WHERE status IN ('queued', 'submitted')
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_0801eb4d0a439089d72fe08c7b" ON "llm_batch_waiters" ("task_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tasks_waiting" ON "tasks" ("run_id")
            WHERE status = 'waiting'
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_tasks_waiting"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_0801eb4d0a439089d72fe08c7b"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_llm_batch_calls_pending"
        `);
    await queryRunner.query(`
            ALTER TABLE "llm_calls" DROP COLUMN "batch_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "llm_calls" DROP COLUMN "online_cost_usd"
        `);
    await queryRunner.query(`
            ALTER TABLE "llm_calls" DROP COLUMN "batched"
        `);
    await queryRunner.query(`
            ALTER TABLE "llm_batch_waiters" DROP COLUMN "expired"
        `);
    await queryRunner.query(`
            ALTER TABLE "llm_batch_waiters" DROP COLUMN "http_status"
        `);
    await queryRunner.query(`
            ALTER TABLE "llm_batch_waiters" DROP COLUMN "error"
        `);
    await queryRunner.query(`
            ALTER TABLE "llm_batch_calls" DROP COLUMN "ledger_id"
        `);
  }
}
