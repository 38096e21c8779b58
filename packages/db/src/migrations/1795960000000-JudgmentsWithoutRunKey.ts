import type { MigrationInterface, QueryRunner } from 'typeorm';

// Judgments lose their foreign key to runs (issue 37). Its check locked the run's row FOR KEY
// SHARE in every statement that finished a judged task: one WAL record on one row per finish, for
// every worker of the run (766 in kgds-verify's 800 verify tasks). A judgment is only written
// with the finish of its task, whose own key to the run stays; deleteRun deletes the judgments.

export class JudgmentsWithoutRunKey1795960000000 implements MigrationInterface {
  name = 'JudgmentsWithoutRunKey1795960000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "judgments" DROP CONSTRAINT "FK_47d60343686a686e329076d2f50"
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DELETE FROM "judgments" AS j WHERE NOT EXISTS (SELECT 1 FROM "runs" AS r WHERE r.id = j.run_id)
        `);
    await queryRunner.query(`
            ALTER TABLE "judgments"
            ADD CONSTRAINT "FK_47d60343686a686e329076d2f50" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }
}
