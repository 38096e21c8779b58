import { MigrationInterface, QueryRunner } from 'typeorm';

export class MetricValuePartialIndexes1795645227383 implements MigrationInterface {
  name = 'MetricValuePartialIndexes1795645227383';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE INDEX "ix_metric_values_samples" ON "metric_values" ("run_id", "system", "document_id", "metric")
            WHERE document_id IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_metric_values_system_rows" ON "metric_values" ("run_id")
            WHERE document_id IS NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_metric_values_system_rows"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_metric_values_samples"
        `);
  }
}
