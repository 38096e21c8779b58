import { MigrationInterface, QueryRunner } from 'typeorm';

// The samples table sorted by what produced each value: a page is an index walk, not a sort of
// every per-summary value of the run (npm run bench samples: p50 0.36 s a page without it).
export class MetricValueProducerIndex1795920000000 implements MigrationInterface {
  name = 'MetricValueProducerIndex1795920000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE INDEX "ix_metric_values_samples_producer" ON "metric_values" ("run_id", "produced_by", "system", "document_id", "metric")
            WHERE document_id IS NOT NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_metric_values_samples_producer"
        `);
  }
}
