import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import {
  DATASET_KINDS,
  DatasetConflictError,
  DatasetValidationError,
  importDataset,
  isDatasetKind,
  validateDatasetName,
} from '@precis/ingest';
import {
  INGEST_TASK_KIND,
  type IngestTaskResult,
  PermanentTaskError,
  parseIngestTaskPayload,
  SERVICE_CONFIG,
  type TaskContext,
  type TaskHandler,
} from '@precis/service';
import { DataSource } from 'typeorm';
import type { IngestionConfig } from '../../config/ingestion.env.js';

// Handles 'import-dataset' tasks: a validated, all-or-nothing, idempotent import (the same file
// under the same name is a no-op, so a redelivered task changes nothing).
@Injectable()
export class ImportDatasetUseCase implements TaskHandler {
  readonly kind = INGEST_TASK_KIND;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(SERVICE_CONFIG) private readonly config: IngestionConfig,
  ) {}

  async handle(ctx: TaskContext): Promise<IngestTaskResult> {
    const taskId = ctx.task.taskId;
    const p = parseIngestTaskPayload(taskId, ctx.payload);
    if (!isDatasetKind(p.kind)) {
      throw new PermanentTaskError(
        `ingest task ${taskId}: kind ${JSON.stringify(p.kind)} is not a dataset kind; use one of ${DATASET_KINDS.join(', ')}`,
        'invalid-argument',
      );
    }
    try {
      validateDatasetName(p.datasetName);
    } catch (err) {
      throw new PermanentTaskError(`ingest task ${taskId}: ${(err as Error).message}`, 'invalid-argument');
    }
    const path = this.resolvePath(taskId, p.path);
    let lastLogged = 0;
    try {
      const result = await importDataset(this.dataSource, {
        kind: p.kind,
        path,
        name: p.datasetName,
        replace: p.replace,
        onProgress: (progress) => {
          // One line per phase change or 1000 records: progress without flooding.
          if (progress.phase !== 'parse' || progress.recordsParsed - lastLogged >= 1000) {
            lastLogged = progress.recordsParsed;
            ctx.logger.debug({ progress }, 'import progress');
          }
        },
      });
      ctx.logger.info(
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
      if (err instanceof DatasetValidationError) {
        throw new PermanentTaskError(
          err.message,
          err.problem === 'file not found' ? 'not-found' : 'invalid-argument',
          {
            cause: err,
          },
        );
      }
      if (err instanceof DatasetConflictError) {
        throw new PermanentTaskError(err.message, 'failed-precondition', { cause: err });
      }
      throw err;
    }
  }

  private resolvePath(taskId: string, path: string): string {
    const root = this.config.INGEST_ROOT;
    if (!root) return resolve(path);
    const full = resolve(root, path);
    // Compared after resolving links, so a symlink under the root cannot lead outside it.
    const real = (p: string) => (existsSync(p) ? realpathSync(p) : p);
    const rel = relative(real(root), real(full));
    if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
      throw new PermanentTaskError(
        `ingest task ${taskId}: path ${JSON.stringify(path)} is outside INGEST_ROOT=${root}; put the file under that directory`,
        'invalid-argument',
      );
    }
    return full;
  }
}
