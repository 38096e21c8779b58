import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  Optional,
} from '@nestjs/common';
import type { Bus } from '@precis/bus';
import { RunEntity } from '@precis/db';
import { createRunContext, type FamilyRegistry, type RunContext, RunCoordinator } from '@precis/engine';
import { loadedFamilies } from '@precis/families';
import { prepareImport } from '@precis/ingest';
import { createTypeOrmLlmStore, LlmClient, loadModelRegistry, type ModelRegistry } from '@precis/llm';
import {
  BUS,
  FAMILIES,
  runLogger,
  SERVICE_CONFIG,
  SERVICE_LOGGER,
  type ServiceLogger,
} from '@precis/service';
import { DataSource, In } from 'typeorm';
import type { GatewayConfig } from '../config/gateway.env.js';

// Drives runs forward from the gateway: a RunCoordinator re-plans a run on every task-completed
// event and on a periodic tick. At startup it resumes watching every unfinished run (with a
// redispatch of its unfinished tasks, in case they were lost with a previous gateway). The
// workers never need the gateway to make progress on a task; only planning happens here.
@Injectable()
export class RunDriver implements OnApplicationBootstrap, OnModuleDestroy {
  readonly ctx: RunContext;
  // PRECIS_MODELS, as the workers read it (the preflight of a submitted run checks its models).
  readonly registry: ModelRegistry | undefined;
  private readonly coordinator: RunCoordinator;
  private readonly log: ServiceLogger;
  private readonly watching = new Set<string>();
  private readonly retryMs: number;
  private stopped = false;

  constructor(
    @Inject(BUS) bus: Bus,
    private readonly dataSource: DataSource,
    @Inject(SERVICE_CONFIG) config: GatewayConfig,
    @Inject(SERVICE_LOGGER) logger: ServiceLogger,
    @Optional() @Inject(FAMILIES) families?: FamilyRegistry,
  ) {
    this.log = logger.child({ component: 'run-driver' });
    const registry = config.PRECIS_MODELS
      ? loadModelRegistry(config.PRECIS_MODELS, { setting: 'PRECIS_MODELS' })
      : undefined;
    this.registry = registry;
    this.ctx = createRunContext({
      db: dataSource,
      bus,
      families: families ?? loadedFamilies(),
      registry,
      logger: runLogger(this.log),
      prepareImport,
    });
    // The gateway sends the calls workers parked for provider batches (one batcher per endpoint
    // across the cluster: taking calls is locked per endpoint in the database).
    const batchProviders = registry
      ? new LlmClient({ registry, store: createTypeOrmLlmStore(dataSource) })
      : undefined;
    this.coordinator = new RunCoordinator(this.ctx, bus, config.RUN_TICK_MS, undefined, batchProviders);
    this.retryMs = config.RUN_TICK_MS;
  }

  get hasModelRegistry(): boolean {
    return this.ctx.modelInfo !== undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.coordinator.start();
    const open = await this.dataSource
      .getRepository(RunEntity)
      .find({ select: { id: true }, where: { status: In(['pending', 'running']) } });
    for (const run of open) this.watch(run.id);
    this.log.info({ resumed: open.length }, 'driving runs');
  }

  // Idempotent: a run already watched by this gateway is not watched twice.
  watch(runId: string): void {
    if (this.watching.has(runId)) return;
    this.watching.add(runId);
    this.coordinator.watch(runId).then(
      (p) => {
        this.watching.delete(runId);
        this.log.info({ runId, status: p.status, error: p.error }, `run ${p.status}`);
      },
      (err: unknown) => {
        this.watching.delete(runId);
        // e.g. the database was briefly unreachable: the task table is the truth, so try again.
        this.log.error({ runId, err, retryMs: this.retryMs }, 'planning the run failed; retrying');
        if (!this.stopped) setTimeout(() => this.stopped || this.watch(runId), this.retryMs).unref();
      },
    );
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await this.coordinator.stop();
  }
}
