import { MigrationInterface, QueryRunner } from 'typeorm';

// A call's ledger row is written 'sent' before its request and settled in place; the committed
// cost of each run with a limit (run_costs) follows every llm_calls write through a trigger,
// which refuses a 'sent' row that would take its run past runs.cost_limit_usd (SQLSTATE PR001,
// the amounts as JSON in the detail). Any writer of llm_calls (the LLM store, a task's result statement) keeps
// the counter right, in every process, on PostgreSQL and PGlite alike.
export class RunCostLimit1795443078893 implements MigrationInterface {
  name = 'RunCostLimit1795443078893';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "run_costs" (
                "run_id" uuid NOT NULL,
                "committed_usd" numeric(20, 10) NOT NULL DEFAULT '0',
                CONSTRAINT "PK_4a498d3b432835464b69a21051d" PRIMARY KEY ("run_id")
            )
        `);
    await queryRunner.query(`
            ALTER TABLE "llm_calls"
            ADD "status" text NOT NULL DEFAULT 'ok'
        `);
    await queryRunner.query(`
            UPDATE "llm_calls" SET "status" = CASE WHEN cache_hit THEN 'cached' WHEN error IS NOT NULL THEN 'error' ELSE 'ok' END
        `);
    await queryRunner.query(`
            INSERT INTO "run_costs" ("run_id", "committed_usd")
            SELECT l.run_id, sum(l.cost_usd) FROM "llm_calls" l JOIN "runs" r ON r.id = l.run_id
             WHERE r.cost_limit_usd IS NOT NULL GROUP BY l.run_id
        `);
    await queryRunner.query(`
            CREATE FUNCTION llm_calls_commit_cost() RETURNS trigger LANGUAGE plpgsql AS $fn$
            DECLARE
                delta numeric(20, 10);
                lim numeric(20, 10);
                enforce boolean;
                done integer;
            BEGIN
                IF NEW.run_id IS NULL THEN RETURN NULL; END IF;
                IF TG_OP = 'INSERT' THEN delta := NEW.cost_usd; ELSE delta := NEW.cost_usd - OLD.cost_usd; END IF;
                IF delta = 0 THEN RETURN NULL; END IF;
                -- Only runs with a limit keep a counter: the others' ledger writes never wait on it.
                SELECT cost_limit_usd INTO lim FROM runs WHERE id = NEW.run_id;
                IF lim IS NULL THEN RETURN NULL; END IF;
                -- Only a new call is held to the limit; settling records money already spent.
                enforce := TG_OP = 'INSERT' AND NEW.status = 'sent';
                INSERT INTO run_costs AS c (run_id, committed_usd)
                    SELECT NEW.run_id, delta WHERE NOT enforce OR delta <= lim
                ON CONFLICT (run_id) DO UPDATE SET committed_usd = c.committed_usd + EXCLUDED.committed_usd
                    WHERE NOT enforce OR c.committed_usd + EXCLUDED.committed_usd <= lim;
                GET DIAGNOSTICS done = ROW_COUNT;
                IF done = 0 THEN
                    RAISE EXCEPTION USING
                        ERRCODE = 'PR001',
                        MESSAGE = format('run %s: reserving %s USD for a call would exceed its cost limit of %s USD', NEW.run_id, delta, lim),
                        DETAIL = json_build_object(
                            'limit', lim::text,
                            'reserve', delta::text,
                            'committed', coalesce((SELECT committed_usd FROM run_costs WHERE run_id = NEW.run_id), 0)::text
                        )::text;
                END IF;
                RETURN NULL;
            END
            $fn$
        `);
    await queryRunner.query(`
            CREATE TRIGGER llm_calls_commit_cost AFTER INSERT OR UPDATE OF cost_usd ON "llm_calls"
            FOR EACH ROW EXECUTE FUNCTION llm_calls_commit_cost()
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER llm_calls_commit_cost ON "llm_calls"`);
    await queryRunner.query(`DROP FUNCTION llm_calls_commit_cost()`);
    await queryRunner.query(`
            ALTER TABLE "llm_calls" DROP COLUMN "status"
        `);
    await queryRunner.query(`
            DROP TABLE "run_costs"
        `);
  }
}
