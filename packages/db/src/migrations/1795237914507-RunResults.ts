import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunResults1795237914507 implements MigrationInterface {
  name = 'RunResults1795237914507';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "judgments" (
                "id" text NOT NULL,
                "run_id" uuid NOT NULL,
                "summary_id" text NOT NULL,
                "system" text NOT NULL,
                "metric" text NOT NULL,
                "unit" integer NOT NULL,
                "status" text NOT NULL,
                "verdict" jsonb NOT NULL,
                "judge" text NOT NULL,
                "template_version" text,
                "task_id" text NOT NULL,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_e546f7ce374883521a8d78612e3" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_judgments_run_metric" ON "judgments" ("run_id", "metric")
        `);
    await queryRunner.query(`
            CREATE TABLE "metric_values" (
                "id" text NOT NULL,
                "run_id" uuid NOT NULL,
                "system" text NOT NULL,
                "document_id" uuid,
                "metric" text NOT NULL,
                "value" double precision,
                "details" jsonb NOT NULL DEFAULT '{}',
                "produced_by" text NOT NULL,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_c61c1aae6e4f379e3cd074590ad" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_metric_values_run" ON "metric_values" ("run_id", "metric")
        `);
    await queryRunner.query(`
            CREATE TABLE "summaries" (
                "id" text NOT NULL,
                "run_id" uuid NOT NULL,
                "system" text NOT NULL,
                "document_id" uuid NOT NULL,
                "text" text NOT NULL,
                "final_step" text NOT NULL,
                "producer" text NOT NULL,
                "stats" jsonb NOT NULL DEFAULT '{}',
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_448e2a87db98ce2a6ee8946f392" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_summaries_run_system" ON "summaries" ("run_id", "system")
        `);
    await queryRunner.query(`
            ALTER TABLE "judgments"
            ADD CONSTRAINT "FK_47d60343686a686e329076d2f50" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "metric_values"
            ADD CONSTRAINT "FK_5559a9fcbfe3ba56548549eb345" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "summaries"
            ADD CONSTRAINT "FK_00ce4cc2ce3ecb380fd0afb7060" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "summaries" DROP CONSTRAINT "FK_00ce4cc2ce3ecb380fd0afb7060"
        `);
    await queryRunner.query(`
            ALTER TABLE "metric_values" DROP CONSTRAINT "FK_5559a9fcbfe3ba56548549eb345"
        `);
    await queryRunner.query(`
            ALTER TABLE "judgments" DROP CONSTRAINT "FK_47d60343686a686e329076d2f50"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_summaries_run_system"
        `);
    await queryRunner.query(`
            DROP TABLE "summaries"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_metric_values_run"
        `);
    await queryRunner.query(`
            DROP TABLE "metric_values"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_judgments_run_metric"
        `);
    await queryRunner.query(`
            DROP TABLE "judgments"
        `);
  }
}
