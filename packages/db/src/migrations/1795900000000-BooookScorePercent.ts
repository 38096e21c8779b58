import { MigrationInterface, QueryRunner } from 'typeorm';

// BooookScore values (per summary and per system) are stored in percent, as every report shows
// them; rows written before were shares (0-1). The system rows' details keep the share.
export class BooookScorePercent1795900000000 implements MigrationInterface {
  name = 'BooookScorePercent1795900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            UPDATE "metric_values" SET "value" = 100 * "value"
            WHERE "metric" LIKE 'booookscore.%' AND "value" IS NOT NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            UPDATE "metric_values" SET "value" = "value" / 100
            WHERE "metric" LIKE 'booookscore.%' AND "value" IS NOT NULL
        `);
  }
}
