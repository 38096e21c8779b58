import { MigrationInterface, QueryRunner } from 'typeorm';

// The samples table's filters and sorts on a run's per-summary values: by value (a failed sample,
// null, first ascending and last descending), a metric's values by value, and a document's values
// (sorted by document, and side by side). TypeORM cannot declare NULLS FIRST: only this does.
export class MetricValueSampleIndexes1795910000000 implements MigrationInterface {
  name = 'MetricValueSampleIndexes1795910000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE INDEX "ix_metric_values_samples_value" ON "metric_values" ("run_id", "value" NULLS FIRST, "system", "document_id", "metric")
            WHERE document_id IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_metric_values_samples_metric" ON "metric_values" ("run_id", "metric", "value" NULLS FIRST, "system", "document_id")
            WHERE document_id IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_metric_values_samples_document" ON "metric_values" ("run_id", "document_id", "system", "metric")
            WHERE document_id IS NOT NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_metric_values_samples_document"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_metric_values_samples_metric"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_metric_values_samples_value"
        `);
  }
}
