import { isAbsolute, resolve } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { GrpcInvalidArgumentException, GrpcUnavailableException } from '@nestjs/microservices';
import type { CreateRunRequest, CreateRunResponse } from '@precis/contracts';
import { DatasetConflictError, DatasetValidationError } from '@precis/ingest';
import { type BenchmarkSpec, createRun, SpecError, validateSpec } from '@precis/runs';
import { SERVICE_LOGGER, type ServiceLogger, ShutdownState } from '@precis/service';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { toProtoRun } from '../dto/run.mapper.js';
import { RunDriver } from '../run-driver.provider.js';

// gRPC metadata key naming the directory that relative paths in the spec are resolved against
// (the CLI sends the spec file's folder). Without it, the gateway's working directory is used.
export const SPEC_DIR_METADATA = 'precis-spec-dir';

const SPEC_NAME = '<CreateRun spec>';

function parseSpecText(request: CreateRunRequest): unknown {
  const json = request.specJson;
  const yaml = request.specYaml;
  if (json !== undefined && json.trim() !== '') {
    try {
      return JSON.parse(json);
    } catch (err) {
      throw new SpecError(SPEC_NAME, [`spec_json is not valid JSON: ${(err as Error).message}`]);
    }
  }
  if (yaml !== undefined && yaml.trim() !== '') {
    try {
      return parseYaml(yaml);
    } catch (err) {
      const line = err instanceof YAMLParseError && err.linePos ? ` at line ${err.linePos[0].line}` : '';
      throw new SpecError(SPEC_NAME, [
        `spec_yaml is not valid YAML${line}: ${(err as Error).message.split('\n')[0]}`,
      ]);
    }
  }
  throw new SpecError(SPEC_NAME, ['the request has no spec: set spec_yaml or spec_json']);
}

// Paths in a spec are read by the gateway (dataset import): absolute, or relative to the spec
// folder the caller names, or else to the gateway's working directory. The spec's `models:` file
// is not used: every service of the cluster reads the registry named by its PRECIS_MODELS.
export function resolveSpecPaths(spec: BenchmarkSpec, baseDir: string): BenchmarkSpec {
  const rel = (p: string) => (isAbsolute(p) ? p : resolve(baseDir, p));
  return {
    ...spec,
    models: undefined,
    datasets: spec.datasets.map((d) => (d.path === undefined ? d : { ...d, path: rel(d.path) })),
  };
}

@Injectable()
export class CreateRunUseCase {
  constructor(
    private readonly driver: RunDriver,
    private readonly shutdown: ShutdownState,
    @Inject(SERVICE_LOGGER) private readonly logger: ServiceLogger,
  ) {}

  async execute(request: CreateRunRequest, specDir: string | undefined): Promise<CreateRunResponse> {
    if (this.shutdown.shuttingDown)
      throw new GrpcUnavailableException('the gateway is shutting down; retry on another replica');
    const baseDir = specDir && isAbsolute(specDir) ? specDir : process.cwd();
    try {
      const raw = parseSpecText(request);
      const spec = resolveSpecPaths(validateSpec(raw, SPEC_NAME), baseDir);
      if ((raw as { models?: unknown } | null)?.models !== undefined)
        this.logger.info(
          { specModels: (raw as { models?: unknown }).models },
          "the spec's models: file is ignored; the cluster uses PRECIS_MODELS",
        );
      const text = request.specYaml ?? request.specJson ?? '';
      const { run, resumed } = await createRun(
        this.driver.ctx,
        { spec, file: SPEC_NAME, text },
        { fresh: request.fresh === true },
      );
      this.driver.watch(run.id);
      this.logger.info(
        { runId: run.id, name: run.name, resumed, baseDir },
        resumed ? 'run resumed' : 'run created',
      );
      return { run: toProtoRun(run), resumed };
    } catch (err) {
      if (
        err instanceof SpecError ||
        err instanceof DatasetValidationError ||
        err instanceof DatasetConflictError
      )
        throw new GrpcInvalidArgumentException(err.message);
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        throw new GrpcInvalidArgumentException(
          `${(err as Error).message} (paths are resolved on the gateway against ${baseDir})`,
        );
      throw err;
    }
  }
}
