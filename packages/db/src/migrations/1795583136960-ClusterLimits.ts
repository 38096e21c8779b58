import { MigrationInterface, QueryRunner } from 'typeorm';

// Model-endpoint limits held for the whole cluster (llm_slots, llm_rate_windows; see LlmSlotEntity).
export class ClusterLimits1795583136960 implements MigrationInterface {
  name = 'ClusterLimits1795583136960';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "llm_slots" (
                "endpoint" text NOT NULL,
                "slot" integer NOT NULL,
                "holder" text,
                "expires_at" TIMESTAMP WITH TIME ZONE,
                CONSTRAINT "PK_8ad0cd4101d7cdc67f7a8f65fa0" PRIMARY KEY ("endpoint", "slot")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "llm_rate_windows" (
                "endpoint" text NOT NULL,
                "window_start" TIMESTAMP WITH TIME ZONE NOT NULL,
                "requests" integer NOT NULL DEFAULT '0',
                "tokens" bigint NOT NULL DEFAULT '0',
                CONSTRAINT "PK_f1242c39abfa390110538e770d6" PRIMARY KEY ("endpoint", "window_start")
            )
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP TABLE "llm_rate_windows"
        `);
    await queryRunner.query(`
            DROP TABLE "llm_slots"
        `);
  }
}
