import { Inject, Injectable } from '@nestjs/common';
import {
  type BenchmarkSpec,
  InvalidInputError,
  PreconditionError,
  specModels,
  specModelUses,
} from '@precis/engine';
import {
  createTypeOrmLlmStore,
  describeCapabilityProblems,
  LlmClient,
  LlmError,
  type LlmStore,
  modelUseProblems,
  preflightModels,
} from '@precis/llm';
import { clusterLimiters, SERVICE_LOGGER, type ServiceLogger } from '@precis/service';
import { DataSource } from 'typeorm';
import { RunDriver } from '../run-driver.provider.js';

// A model that answered its preflight is not asked again for this long: a burst of CreateRuns
// sends one request per endpoint. Refusals are not remembered, so a fixed endpoint passes at once.
export const PREFLIGHT_PASS_TTL_MS = 30_000;
// Below the CLI's 60 s deadline, so the caller hears why rather than a timeout.
export const PREFLIGHT_TIMEOUT_MS = 45_000;

// The gateway's side of `precis run`'s preflight, before a submitted run is created or resumed:
// each model the spec names that PRECIS_MODELS holds has its key variable set on this gateway (the
// workers read the same registry and need the same variables), and unless `request` is false it
// answers one cheap request, recorded in the ledger without a run. Models PRECIS_MODELS lacks are
// left to the spec's validation. A failure is a PreconditionError with the preflight's message,
// and nothing is stored or changed. First, whatever the spec asks of a model that PRECIS_MODELS
// says it cannot do (a judge's temperature, logprobs) is invalid input, one line each, before
// any request and whatever `request` says.
@Injectable()
export class ModelPreflight {
  private readonly store: LlmStore;
  private readonly passed = new Map<string, number>();
  private readonly log: ServiceLogger;

  constructor(
    private readonly driver: RunDriver,
    private readonly dataSource: DataSource,
    @Inject(SERVICE_LOGGER) logger: ServiceLogger,
  ) {
    this.store = createTypeOrmLlmStore(dataSource);
    this.log = logger.child({ component: 'preflight' });
  }

  async check(spec: BenchmarkSpec, opts: { request: boolean }): Promise<void> {
    const registry = this.driver.registry;
    const models = [...new Set(specModels(spec).map((m) => m.model))].filter((m) => registry?.models.has(m));
    if (!registry || models.length === 0) return;
    this.checkCapabilities(spec);
    // A client per check: one that saw a 401 refuses that endpoint for good, the gateway must not.
    const client = new LlmClient({
      registry,
      store: this.store,
      limiters: clusterLimiters(this.dataSource),
      cacheEnabled: false,
    });
    const signal = AbortSignal.timeout(PREFLIGHT_TIMEOUT_MS);
    try {
      await preflightModels(client, models, { request: false });
      const due = opts.request ? models.filter((m) => !this.recentlyPassed(m)) : [];
      if (due.length === 0) return;
      await preflightModels(client, due, { signal });
      for (const m of due) this.passed.set(m, Date.now());
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      const message = signal.aborted
        ? `the preflight of ${models.map((m) => `model "${m}"`).join(', ')} did not finish within ${PREFLIGHT_TIMEOUT_MS / 1000} s; check the endpoints in PRECIS_MODELS, or skip the request with --no-preflight`
        : err.message;
      this.log.warn({ models, error: message }, 'preflight refused the run');
      throw new PreconditionError(`${message} (no run was created or resumed)`, { cause: err });
    } finally {
      await client.close();
    }
  }

  private checkCapabilities(spec: BenchmarkSpec): void {
    const problems = modelUseProblems(this.driver.registry!, specModelUses(this.driver.ctx.families, spec));
    if (problems.length === 0) return;
    this.log.warn({ problems }, 'the spec asks its models for what they cannot do');
    throw new InvalidInputError(describeCapabilityProblems(problems, '(no run was created or resumed)'));
  }

  private recentlyPassed(model: string): boolean {
    const at = this.passed.get(model);
    return at !== undefined && Date.now() - at < PREFLIGHT_PASS_TTL_MS;
  }
}
