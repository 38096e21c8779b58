import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  type FamilyRegistry,
  type JobContext,
  type JobHandler,
  PermanentTaskError,
  type TaskErrorCode,
} from '@precis/engine';
import { loadedFamilies } from '@precis/families';
import { FileAccessError, type FileAccessProblem } from '@precis/files';
import {
  DatasetConflictError,
  DatasetValidationError,
  importDataset,
  validateDatasetName,
} from '@precis/ingest';
import type { Level } from 'pino';
import { DataSource } from 'typeorm';
import type { EnvConfig } from '../config/env-schema.js';
import { type FileAccessEnvSchema, serverFilePolicy } from '../config/file-access-env.js';
import { SERVICE_CONFIG, SERVICE_LOGGER, WORKER_LOG_LEVEL } from '../core/tokens.js';
import { type ServiceLogger, taskLogger, workerLogger } from '../logging/create-logger.js';
import { FAMILIES } from '../runs/families.js';
import { INGEST_TASK_KIND, type IngestTaskResult, parseIngestTaskPayload } from './ingest-task.js';

// How each refusal of the file-access policy is answered (the gateway maps these to gRPC codes).
const FILE_ERROR_CODES: Record<FileAccessProblem, TaskErrorCode> = {
  'outside-root': 'permission-denied',
  'not-found': 'not-found',
  'not-regular': 'invalid-argument',
  'too-large': 'invalid-argument',
  timeout: 'unavailable',
  unreadable: 'permission-denied',
};

// Handles 'import-dataset' tasks: a validated, all-or-nothing, idempotent import (the same file
// under the same name is a no-op, so a redelivered task changes nothing).
@Injectable()
export class ImportDatasetJob implements JobHandler {
  readonly kind = INGEST_TASK_KIND;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(SERVICE_CONFIG) private readonly config: EnvConfig<FileAccessEnvSchema>,
    @Inject(SERVICE_LOGGER) logger: ServiceLogger,
    @Optional() @Inject(WORKER_LOG_LEVEL) level?: Level,
    @Optional() @Inject(FAMILIES) families?: FamilyRegistry,
  ) {
    this.logger = workerLogger(logger, level);
    this.kinds = (families ?? loadedFamilies()).datasetKinds;
  }

  private readonly logger: ServiceLogger;
  // The dataset kinds the loaded families register, with their parsers.
  private readonly kinds: FamilyRegistry['datasetKinds'];

  async handle(job: JobContext): Promise<IngestTaskResult> {
    const taskId = job.taskId;
    const log = taskLogger(this.logger, { taskId, stage: 'ingest', kind: this.kind });
    const p = parseIngestTaskPayload(taskId, job.payload);
    if (!this.kinds.has(p.kind)) {
      throw new PermanentTaskError(
        `ingest task ${taskId}: kind ${JSON.stringify(p.kind)} is not a dataset kind; use one of ${[...this.kinds.keys()].join(', ')}`,
        'invalid-argument',
      );
    }
    try {
      validateDatasetName(p.datasetName);
    } catch (err) {
      throw new PermanentTaskError(`ingest task ${taskId}: ${(err as Error).message}`, 'invalid-argument');
    }
    const path = p.path;
    let lastLogged = 0;
    try {
      const result = await importDataset(this.dataSource, {
        kind: p.kind,
        kinds: this.kinds,
        path,
        ...(p.documentsPath === undefined ? {} : { documentsPath: p.documentsPath }),
        name: p.datasetName,
        replace: p.replace,
        access: serverFilePolicy(this.config),
        onProgress: (progress) => {
          // One line per phase change or 1000 records: progress without flooding.
          if (progress.phase !== 'parse' || progress.recordsParsed - lastLogged >= 1000) {
            lastLogged = progress.recordsParsed;
            log.debug({ progress }, 'import progress');
          }
        },
      });
      log.info(
        { status: result.status, counts: result.counts, path },
        `dataset ${p.datasetName} ${result.status}`,
      );
      return {
        status: result.status,
        datasetId: result.dataset.id,
        datasetName: result.dataset.name,
        counts: result.counts,
      };
    } catch (err) {
      // Refused files are answered at once: no retry can change the policy's verdict.
      if (err instanceof FileAccessError)
        throw new PermanentTaskError(err.message, FILE_ERROR_CODES[err.problem], { cause: err });
      if (err instanceof DatasetValidationError)
        throw new PermanentTaskError(err.message, 'invalid-argument', { cause: err });
      if (err instanceof DatasetConflictError) {
        throw new PermanentTaskError(err.message, 'failed-precondition', { cause: err });
      }
      throw err;
    }
  }
}
