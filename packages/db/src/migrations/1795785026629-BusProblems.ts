import { MigrationInterface, QueryRunner } from 'typeorm';

// Stage queues that keep failing, as each process reports them (see BusProblemEntity).
export class BusProblems1795785026629 implements MigrationInterface {
  name = 'BusProblems1795785026629';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "bus_problems" (
                "reporter" text NOT NULL,
                "stage" text NOT NULL,
                "problem" text NOT NULL,
                "since" TIMESTAMP WITH TIME ZONE NOT NULL,
                "seen_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_33d3133637e62c4368062b7a952" PRIMARY KEY ("reporter", "stage")
            )
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP TABLE "bus_problems"
        `);
  }
}
