import { MigrationInterface, QueryRunner } from 'typeorm';

// Trained GoR weights keyed by the sha256 of their training inputs (reused by re-runs).
export class GorModels1795633982138 implements MigrationInterface {
  name = 'GorModels1795633982138';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "gor_models" (
                "key" text NOT NULL,
                "weights" bytea NOT NULL,
                "shapes" jsonb NOT NULL,
                "training" jsonb NOT NULL,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_3579cd183d0fd248e1bf56e8b72" PRIMARY KEY ("key")
            )
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP TABLE "gor_models"
        `);
  }
}
