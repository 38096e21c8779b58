import { AdvancedConsoleLogger, type QueryRunner } from 'typeorm';

let statements = 0;

// Statements this process has sent to its databases (every data source): /metrics exposes it as
// precis_db_statements_total, and the benches divide it by the tasks a run did.
export const databaseStatements = (): number => statements;

// TypeORM's console logger (it still prints only what `logging` asks for), counting every
// statement first: TypeORM calls logQuery once per statement, transactions' BEGIN/COMMIT included.
export class CountingLogger extends AdvancedConsoleLogger {
  override logQuery(query: string, parameters?: unknown[], queryRunner?: QueryRunner): void {
    statements++;
    super.logQuery(query, parameters, queryRunner);
  }
}
