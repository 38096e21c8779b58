import { MigrationInterface, QueryRunner } from 'typeorm';

// Gateway API keys, stored as SHA-256 digests only (see ApiKeyEntity).
export class ApiKeys1795561958502 implements MigrationInterface {
  name = 'ApiKeys1795561958502';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "api_keys" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "name" text NOT NULL,
                "key_sha256" text NOT NULL,
                "prefix" text NOT NULL,
                "scope" text NOT NULL,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "UQ_5457f77c4528c36c3d810bf6b70" UNIQUE ("name"),
                CONSTRAINT "UQ_fa7e2c9015a7586a344a78eb0e6" UNIQUE ("key_sha256"),
                CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id")
            )
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP TABLE "api_keys"
        `);
  }
}
