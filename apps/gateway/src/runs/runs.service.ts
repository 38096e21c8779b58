import { Injectable } from '@nestjs/common';
import { GrpcInvalidArgumentException, GrpcNotFoundException } from '@nestjs/microservices';
import type { Run, RunStatus } from '@precis/contracts';
import { RunEntity } from '@precis/db';
import {
  cancelRun,
  findRun,
  listRuns,
  RunNotFoundError,
  RunStateError,
  stageCounts,
  usageSoFar,
} from '@precis/runs';
import { DataSource } from 'typeorm';
import { fromProtoRunStatus, taskCountsMap, toProtoRun } from './dto/run.mapper.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1000;

// Reads and state changes of runs, straight from the database (the source of truth).
@Injectable()
export class RunsService {
  constructor(private readonly dataSource: DataSource) {}

  async get(ref: string): Promise<Run> {
    const run = await this.find(ref);
    const [counts, usage] = await Promise.all([
      stageCounts(this.dataSource, run.id),
      usageSoFar(this.dataSource, run.id),
    ]);
    return toProtoRun(run, { taskCounts: taskCountsMap(counts), costUsd: usage.costUsd });
  }

  async list(status: RunStatus | undefined, limit: number | undefined): Promise<Run[]> {
    if (limit !== undefined && limit < 0)
      throw new GrpcInvalidArgumentException(`limit: must be >= 0, got ${limit}`);
    const take = Math.min(limit || DEFAULT_LIMIT, MAX_LIMIT);
    const wanted = status ? fromProtoRunStatus(status) : null;
    if (status && !wanted) throw new GrpcInvalidArgumentException(`status: unknown run status ${status}`);
    const runs = wanted
      ? await this.dataSource
          .getRepository(RunEntity)
          .find({ where: { status: wanted }, order: { createdAt: 'DESC' }, take })
      : await listRuns(this.dataSource, take);
    return runs.map((r) => toProtoRun(r));
  }

  // Marks an unfinished run cancelled: the planner creates no more tasks and workers skip the
  // queued ones (they check the run's status first); tasks already running finish. Cancelling a
  // finished run changes nothing. The run's error records who cancelled it (the key's name).
  async cancel(ref: string, reason: string, by: string): Promise<Run> {
    const run = await this.find(ref);
    const why = `${reason.trim() || 'cancelled'} (by API key ${by})`;
    await cancelRun(this.dataSource, run.id, why).catch((err: unknown) => {
      if (!(err instanceof RunStateError)) throw err;
    });
    return this.get(run.id);
  }

  private async find(ref: string): Promise<RunEntity> {
    if (!ref.trim()) throw new GrpcInvalidArgumentException('run_id is empty');
    try {
      return await findRun(this.dataSource, ref);
    } catch (err) {
      if (err instanceof RunNotFoundError) throw new GrpcNotFoundException(err.message);
      throw err;
    }
  }
}
