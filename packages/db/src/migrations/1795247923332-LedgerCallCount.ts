import { MigrationInterface, QueryRunner } from 'typeorm';

export class LedgerCallCount1795247923332 implements MigrationInterface {
  name = 'LedgerCallCount1795247923332';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "llm_calls"
            ADD "calls" integer NOT NULL DEFAULT '1'
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "llm_calls" DROP COLUMN "calls"
        `);
  }
}
