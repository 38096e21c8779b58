import { isAbsolute, resolve } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import type { CreateRunRequest, CreateRunResponse } from '@precis/contracts';
import {
  type BenchmarkSpec,
  checkPluginAddresses,
  createRun,
  type DomainError,
  type InputLocation,
  InvalidInputError,
  NotFoundError,
  PermissionError,
  parseSpecSource,
  SpecError,
  SpecTextError,
  UnavailableError,
  validateSpec,
} from '@precis/engine';
import { FileAccessError } from '@precis/files';
import { DatasetConflictError, DatasetValidationError } from '@precis/ingest';
import {
  SERVICE_CONFIG,
  SERVICE_LOGGER,
  type ServiceLogger,
  ShutdownState,
  serverFilePolicy,
} from '@precis/service';
import type { GatewayConfig } from '../../config/gateway.env.js';
import { toProtoRun } from '../dto/run.mapper.js';
import { RunDriver } from '../run-driver.provider.js';
import { ModelPreflight } from './preflight-models.js';

// gRPC metadata key naming the directory that relative paths in the spec are resolved against
// (the CLI sends the spec file's folder). Without it, the gateway's working directory is used.
export const SPEC_DIR_METADATA = 'precis-spec-dir';

const SPEC_NAME = '<CreateRun spec>';

// The spec's JSON or YAML text, nested at most SPEC_MAX_DEPTH levels (checked before parsing).
function parseSpecText(request: CreateRunRequest): unknown {
  const json = request.specJson;
  const yaml = request.specYaml;
  const [field, text, format] =
    json !== undefined && json.trim() !== ''
      ? (['spec_json', json, 'json'] as const)
      : (['spec_yaml', yaml ?? '', 'yaml'] as const);
  if (text.trim() === '')
    throw new SpecError(SPEC_NAME, ['the request has no spec: set spec_yaml or spec_json']);
  try {
    return parseSpecSource(text, format);
  } catch (err) {
    if (err instanceof SpecTextError) throw new SpecError(SPEC_NAME, [`${field} is ${err.problem}`]);
    throw err;
  }
}

// Paths in a spec are read by the gateway (dataset import) under its file-access policy: absolute,
// or relative to the spec folder the caller names, or else to INGEST_ROOT. The spec's `models:`
// file is not used: every service of the cluster reads the registry named by its PRECIS_MODELS.
export function resolveSpecPaths(spec: BenchmarkSpec, baseDir: string | undefined): BenchmarkSpec {
  // Without a spec folder, relative paths stay relative: the file policy resolves them in INGEST_ROOT.
  const rel = (p: string) => (isAbsolute(p) || baseDir === undefined ? p : resolve(baseDir, p));
  return {
    ...spec,
    models: undefined,
    datasets: spec.datasets.map((d) => (d.path === undefined ? d : { ...d, path: rel(d.path) })),
  };
}

// A dataset file the policy refused, as the domain error of its kind.
function fileRefusal(err: FileAccessError): DomainError {
  const cause = { cause: err };
  switch (err.problem) {
    case 'outside-root':
    case 'unreadable':
      return new PermissionError(err.message, cause);
    case 'not-found':
      return new NotFoundError(err.message, cause);
    case 'timeout':
      return new UnavailableError(err.message, cause);
    default:
      return new InvalidInputError(err.message, { file: err.path }, cause);
  }
}

// Where a refused spec or dataset went wrong, as far as its error says.
function inputLocation(err: SpecError | DatasetValidationError | DatasetConflictError): InputLocation {
  if (err instanceof SpecError) return { file: err.file };
  if (err instanceof DatasetValidationError)
    return { file: err.file, ...(err.field ? { field: err.field } : {}) };
  return {};
}

@Injectable()
export class CreateRunUseCase {
  constructor(
    private readonly driver: RunDriver,
    private readonly preflight: ModelPreflight,
    private readonly shutdown: ShutdownState,
    @Inject(SERVICE_CONFIG) private readonly config: GatewayConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: ServiceLogger,
  ) {}

  async execute(request: CreateRunRequest, specDir: string | undefined): Promise<CreateRunResponse> {
    if (this.shutdown.shuttingDown)
      throw new UnavailableError('the gateway is shutting down; retry on another replica');
    const access = serverFilePolicy(this.config);
    const baseDir = specDir && isAbsolute(specDir) ? specDir : undefined;
    try {
      const raw = parseSpecText(request);
      const spec = resolveSpecPaths(validateSpec(this.driver.ctx.families, raw, SPEC_NAME), baseDir);
      // Before anything connects or is written: the gateway refuses plugins its operator did not list.
      checkPluginAddresses(spec, this.config.PRECIS_PLUGIN_ADDRESSES, SPEC_NAME);
      if ((raw as { models?: unknown } | null)?.models !== undefined)
        // Debug: the CLI tells its user; the request's own line is its one info line.
        this.logger.debug(
          { specModels: (raw as { models?: unknown }).models },
          "the spec's models: file is ignored; the cluster uses PRECIS_MODELS",
        );
      await this.preflight.check(spec, { request: request.skipPreflight !== true });
      const text = request.specYaml ?? request.specJson ?? '';
      const { run, resumed } = await createRun(
        this.driver.ctx,
        { spec, file: SPEC_NAME, text },
        { fresh: request.fresh === true, fileAccess: access },
      );
      this.driver.watch(run.id);
      // Debug: the gRPC call's one line names the run (at most one info line per request).
      this.logger.debug(
        { runId: run.id, name: run.name, resumed, baseDir: baseDir ?? access.root },
        resumed ? 'run resumed' : 'run created',
      );
      return { run: toProtoRun(run), resumed };
    } catch (err) {
      if (
        err instanceof SpecError ||
        err instanceof DatasetValidationError ||
        err instanceof DatasetConflictError
      )
        throw new InvalidInputError(err.message, inputLocation(err), { cause: err });
      if (err instanceof FileAccessError) throw fileRefusal(err);
      throw err;
    }
  }
}
