import { MigrationInterface, QueryRunner } from 'typeorm';

export class LedgerListCost1795654527752 implements MigrationInterface {
  name = 'LedgerListCost1795654527752';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "llm_calls"
            ADD "list_cost_usd" numeric(20, 10) NOT NULL DEFAULT '0'
        `);
    // Earlier rows: a call's own cost, and a cache hit the cost of the call that filled its entry.
    await queryRunner.query(`UPDATE "llm_calls" SET "list_cost_usd" = "cost_usd" WHERE NOT "cache_hit"`);
    await queryRunner.query(`
            UPDATE "llm_calls" h SET "list_cost_usd" = e."cost_usd" FROM "llm_calls" e
            WHERE h."cache_hit" AND h."calls" = 1 AND e."cache_key" = h."cache_key" AND e."status" = 'ok'
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "llm_calls" DROP COLUMN "list_cost_usd"
        `);
  }
}
