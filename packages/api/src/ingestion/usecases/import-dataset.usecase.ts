import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Bus } from '@precis/bus';
import type { ImportDatasetRequest, ImportDatasetResponse } from '@precis/contracts';
import {
  DeadlineError,
  type DomainError,
  type FamilyRegistry,
  finishTask,
  InternalError,
  InvalidInputError,
  LimitError,
  loadTask,
  NotFoundError,
  PermissionError,
  PreconditionError,
  recordTask,
  type TaskRow,
  taskMessage,
  UnavailableError,
} from '@precis/engine';
import { loadedFamilies } from '@precis/families';
import { getDatasetSummary, validateDatasetName } from '@precis/ingest';
import {
  BUS,
  FAMILIES,
  INGEST_TASK_KIND,
  type IngestTaskPayload,
  type IngestTaskResult,
  SERVICE_CONFIG,
  SERVICE_LOGGER,
  type ServiceLogger,
  ShutdownState,
} from '@precis/service';
import { DataSource } from 'typeorm';
import type { GatewayConfig } from '../../config/gateway.env.js';
import { toProtoDataset, toProtoImportStatus } from '../dto/dataset.mapper.js';
import { TaskCompletions } from '../task-completions.provider.js';
import { checkedPath } from './checked-path.js';

// ImportDataset over the bus: record an ingest task (its payload in the row), enqueue its
// envelope, wait for its task-completed event, then answer from the database (the source of
// truth for the task's outcome).
@Injectable()
export class ImportDatasetUseCase {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly dataSource: DataSource,
    private readonly completions: TaskCompletions,
    private readonly shutdown: ShutdownState,
    @Inject(SERVICE_CONFIG) private readonly config: GatewayConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: ServiceLogger,
    @Optional() @Inject(FAMILIES) families?: FamilyRegistry,
  ) {
    this.kinds = (families ?? loadedFamilies()).datasetKinds;
  }

  // The dataset kinds the loaded families register (checked here, parsed by the ingestion service).
  private readonly kinds: FamilyRegistry['datasetKinds'];

  private inFlight = 0;

  // Each call holds its caller until the import ends; the number held at once is bounded.
  async execute(request: ImportDatasetRequest, signal?: AbortSignal): Promise<ImportDatasetResponse> {
    const max = this.config.IMPORT_MAX_IN_FLIGHT;
    if (this.inFlight >= max)
      throw new LimitError(
        `this gateway already holds ${this.inFlight} of ${max} waiting imports (IMPORT_MAX_IN_FLIGHT); retry when one has finished`,
      );
    this.inFlight++;
    try {
      return await this.importOnce(request, signal);
    } finally {
      this.inFlight--;
    }
  }

  private async importOnce(
    request: ImportDatasetRequest,
    signal?: AbortSignal,
  ): Promise<ImportDatasetResponse> {
    const payload = this.validate(request);
    const taskId = `ingest:${randomUUID()}`;
    const log = this.logger.child({ taskId, stage: 'ingest', dataset: payload.datasetName });
    if (this.shutdown.shuttingDown)
      throw new UnavailableError('the gateway is shutting down; retry on another replica');

    // Wait first, enqueue second: a fast worker's event cannot slip by.
    const wait = this.completions.watcher.wait(taskId, this.config.INGEST_TIMEOUT_MS, signal);
    try {
      await recordTask(this.dataSource, {
        id: taskId,
        runId: null,
        stage: 'ingest',
        kind: INGEST_TASK_KIND,
        payload: { ...payload },
      });
      await this.bus.enqueue(
        'ingest',
        taskMessage({ id: taskId, runId: '', stage: 'ingest', kind: INGEST_TASK_KIND }),
      );
    } catch (err) {
      wait.cancel();
      const message = err instanceof Error ? err.message : String(err);
      await finishTask(
        this.dataSource,
        taskId,
        'failed',
        { errorCode: 'internal' },
        `could not enqueue: ${message}`,
      ).catch(() => false);
      log.error({ err }, 'could not enqueue the ingest task');
      throw new UnavailableError(
        `could not enqueue ingest task ${taskId}: the message bus or database is unavailable; retry later`,
      );
    }
    log.debug({ kind: payload.kind, path: payload.path, replace: payload.replace }, 'ingest task enqueued');

    await wait.done;
    const row = await loadTask(this.dataSource, taskId);
    if (!row) throw new InternalError(`ingest task ${taskId} vanished from the tasks table`);
    return this.answer(row, payload, signal);
  }

  private validate(request: ImportDatasetRequest): IngestTaskPayload {
    const kind = (request.kind ?? '').trim();
    if (!this.kinds.has(kind)) {
      throw new InvalidInputError(
        `kind ${JSON.stringify(kind)} is not a dataset kind; use one of ${[...this.kinds.keys()].join(', ')}`,
        { field: 'kind' },
      );
    }
    const path = checkedPath(request.path ?? '');
    const datasetName = (request.datasetName ?? '').trim();
    try {
      validateDatasetName(datasetName);
    } catch (err) {
      throw new InvalidInputError(`dataset_name: ${(err as Error).message}`, { field: 'dataset_name' });
    }
    const documents = request.documentsPath ? { documentsPath: checkedPath(request.documentsPath) } : {};
    return { kind, path, ...documents, datasetName, replace: request.replace === true };
  }

  private async answer(
    row: TaskRow,
    payload: IngestTaskPayload,
    signal?: AbortSignal,
  ): Promise<ImportDatasetResponse> {
    switch (row.status) {
      case 'done': {
        const result = row.result as IngestTaskResult | null;
        const dataset = await getDatasetSummary(
          this.dataSource,
          result?.datasetName ?? payload.datasetName,
          this.kinds,
        );
        return { status: toProtoImportStatus(result?.status ?? ''), dataset: toProtoDataset(dataset) };
      }
      case 'failed':
      case 'dead':
        throw this.failure(row);
      default: {
        const still = `ingest task ${row.id} is still ${row.status}; it keeps going: check GetDataset ${payload.datasetName} later`;
        if (this.shutdown.shuttingDown) throw new UnavailableError(`the gateway is shutting down; ${still}`);
        if (signal?.aborted) throw new UnavailableError(`the call was cancelled; ${still}`);
        throw new DeadlineError(
          `the import did not finish within INGEST_TIMEOUT_MS=${this.config.INGEST_TIMEOUT_MS} ms; ${still}`,
        );
      }
    }
  }

  // The worker's error code (see the ingest job) as the domain error of its kind.
  private failure(row: TaskRow): DomainError {
    const message = row.error ?? `ingest task ${row.id} ${row.status}`;
    switch ((row.result as { errorCode?: string } | null)?.errorCode) {
      case 'invalid-argument':
        return new InvalidInputError(message, { task: row.id });
      case 'not-found':
        return new NotFoundError(message);
      case 'failed-precondition':
        return new PreconditionError(message);
      case 'permission-denied':
        return new PermissionError(message);
      case 'unavailable':
        return new UnavailableError(message);
      default: {
        // An unexpected failure's text may name hosts or SQL: it stays in the logs.
        const reference = randomUUID().slice(0, 8);
        this.logger.error({ taskId: row.id, error: message, reference }, 'ingest task failed unexpectedly');
        return new InternalError(
          `ImportDataset failed: internal error in ingest task ${row.id} (reference ${reference}; the details are in the gateway's and the ingestion service's logs)`,
        );
      }
    }
  }
}
