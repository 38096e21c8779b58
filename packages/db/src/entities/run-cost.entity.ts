import { Column, Entity, PrimaryColumn } from 'typeorm';

// The cost committed so far by the model calls of each run with a cost limit: settled calls at
// their real cost, calls in flight (or left 'sent') at their reserved cost. Kept by a trigger on llm_calls, which also
// refuses a 'sent' row that would take it past runs.cost_limit_usd (migration RunCostLimit), so
// the limit holds across processes without summing the ledger per call.
@Entity({ name: 'run_costs' })
export class RunCostEntity {
  @PrimaryColumn({ name: 'run_id', type: 'uuid' })
  runId!: string;

  @Column({ name: 'committed_usd', type: 'numeric', precision: 20, scale: 10, default: 0 })
  committedUsd!: string;
}
