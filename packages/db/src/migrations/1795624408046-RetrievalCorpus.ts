import { MigrationInterface, QueryRunner } from 'typeorm';

// Retrieval corpora beside their queries (corpus_documents) and built indexes (retrieval_indexes).
export class RetrievalCorpus1795624408046 implements MigrationInterface {
  name = 'RetrievalCorpus1795624408046';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "corpus_documents" (
                "dataset_id" uuid NOT NULL,
                "external_id" text NOT NULL,
                "ordinal" integer NOT NULL,
                "title" text,
                "text" text NOT NULL,
                CONSTRAINT "PK_2defe4b1a5b5f09bfb501cb7259" PRIMARY KEY ("dataset_id", "external_id")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "retrieval_indexes" (
                "dataset_id" uuid NOT NULL,
                "key" text NOT NULL,
                "dataset_sha256" text NOT NULL,
                "data" bytea NOT NULL,
                "documents" integer NOT NULL,
                "build_ms" integer NOT NULL,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_fac2759db0966a0adc2cd1d39ed" PRIMARY KEY ("dataset_id", "key")
            )
        `);
    await queryRunner.query(`
            ALTER TABLE "corpus_documents"
            ADD CONSTRAINT "FK_807656824474152db6619a60836" FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "retrieval_indexes"
            ADD CONSTRAINT "FK_72269438df340f88df7aacb356c" FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "retrieval_indexes" DROP CONSTRAINT "FK_72269438df340f88df7aacb356c"
        `);
    await queryRunner.query(`
            ALTER TABLE "corpus_documents" DROP CONSTRAINT "FK_807656824474152db6619a60836"
        `);
    await queryRunner.query(`
            DROP TABLE "retrieval_indexes"
        `);
    await queryRunner.query(`
            DROP TABLE "corpus_documents"
        `);
  }
}
