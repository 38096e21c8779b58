import { MigrationInterface, QueryRunner } from 'typeorm';

// Prompt tokens a provider served from its prompt cache, a completion's reasoning tokens, and
// how the request was shaped to its model (e.g. a temperature the model does not take left out).
export class LedgerReasoningTokens1795794073662 implements MigrationInterface {
  name = 'LedgerReasoningTokens1795794073662';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "llm_calls"
            ADD "tokens_cached" integer NOT NULL DEFAULT '0'
        `);
    await queryRunner.query(`
            ALTER TABLE "llm_calls"
            ADD "tokens_reasoning" integer NOT NULL DEFAULT '0'
        `);
    await queryRunner.query(`
            ALTER TABLE "llm_calls"
            ADD "notes" jsonb
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "llm_calls" DROP COLUMN "notes"`);
    await queryRunner.query(`ALTER TABLE "llm_calls" DROP COLUMN "tokens_reasoning"`);
    await queryRunner.query(`ALTER TABLE "llm_calls" DROP COLUMN "tokens_cached"`);
  }
}
