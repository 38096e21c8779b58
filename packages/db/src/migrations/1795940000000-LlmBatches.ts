import type { MigrationInterface, QueryRunner } from 'typeorm';

// Batch mode (issue 39): batches sent to providers, the calls waiting for one, the tasks waiting
// for a call (see LlmBatchEntity).

export class LlmBatches1795940000000 implements MigrationInterface {
  name = 'LlmBatches1795940000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "llm_batches" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "endpoint" text NOT NULL,
                "status" text NOT NULL,
                "provider_batch_id" text,
                "input_file_id" text,
                "requests" integer NOT NULL,
                "completed" integer NOT NULL DEFAULT '0',
                "failed" integer NOT NULL DEFAULT '0',
                "error" text,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "submitted_at" TIMESTAMP WITH TIME ZONE,
                "ended_at" TIMESTAMP WITH TIME ZONE,
                CONSTRAINT "PK_e1f94536b75b374cb657a951f1e" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "IDX_0e63b55b2ae22fc53208a02baa" ON "llm_batches" ("endpoint", "provider_batch_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_c217159d583f67f7a2ed323905" ON "llm_batches" ("endpoint", "status")
        `);
    await queryRunner.query(`
            CREATE TABLE "llm_batch_calls" (
                "cache_key" text NOT NULL,
                "endpoint" text NOT NULL,
                "model" text NOT NULL,
                "request" jsonb NOT NULL,
                "status" text NOT NULL DEFAULT 'queued',
                "batch_id" uuid,
                "expirations" integer NOT NULL DEFAULT '0',
                "error" text,
                "queued_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_44d67ca7b7671be7d4efd66b4c6" PRIMARY KEY ("cache_key")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_d90f00e3045bfd3aefbd321f15" ON "llm_batch_calls" ("endpoint", "status", "queued_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "llm_batch_waiters" (
                "cache_key" text NOT NULL,
                "task_id" text NOT NULL,
                "run_id" uuid,
                CONSTRAINT "PK_8197ea4ebe4a4892c02a1ac5b1f" PRIMARY KEY ("cache_key", "task_id")
            )
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP TABLE "llm_batch_waiters"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_d90f00e3045bfd3aefbd321f15"
        `);
    await queryRunner.query(`
            DROP TABLE "llm_batch_calls"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_c217159d583f67f7a2ed323905"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_0e63b55b2ae22fc53208a02baa"
        `);
    await queryRunner.query(`
            DROP TABLE "llm_batches"
        `);
  }
}
