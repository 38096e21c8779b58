import { Injectable } from '@nestjs/common';
import type { RunEntity } from '@precis/db';
import {
  findRun,
  InvalidInputError,
  NotFoundError,
  RunNotFoundError,
  type SampleFilters,
  type SamplePage,
  type SampleQuery,
  type SideBySide,
  sampleValues,
  sideBySide,
} from '@precis/engine';
import { DataSource } from 'typeorm';
import { boundedField } from '../grpc/page-token.js';

export const DEFAULT_SAMPLES_PAGE = 200;
export const MAX_SAMPLES_PAGE = 1000;
export const MAX_SAMPLES_OFFSET = 1_000_000_000;

// A run's per-summary values for the page, REST and gRPC alike: the samples table (filtered and
// sorted by the database) and one document's summaries side by side with their scores.
@Injectable()
export class SamplesService {
  constructor(private readonly dataSource: DataSource) {}

  async list(ref: string, q: SampleQuery): Promise<SamplePage> {
    const run = await this.run(ref);
    const page = { offset: q.offset, limit: q.limit, sort: q.sort, order: q.order };
    return sampleValues(this.dataSource, run.id, { ...page, ...checkedFilters(q) });
  }

  async sideBySide(ref: string, document: string): Promise<SideBySide> {
    const doc = boundedField('document', document, 200);
    if (!doc)
      throw new InvalidInputError('document is empty: give its external id or id', { field: 'document' });
    const run = await this.run(ref);
    return this.found(() => sideBySide(this.dataSource, run, doc));
  }

  private run(ref: string): Promise<RunEntity> {
    if (!ref.trim()) throw new InvalidInputError('run_id is empty', { field: 'run_id' });
    boundedField('run_id', ref, 100);
    return this.found(() => findRun(this.dataSource, ref));
  }

  private async found<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof RunNotFoundError) throw new NotFoundError(err.message, { cause: err });
      throw err;
    }
  }
}

// Filters as the query takes them: "" is no filter, and a range whose ends cross is refused
// (it would match nothing and look like an empty run).
export function checkedFilters(f: SampleFilters): SampleFilters {
  const system = boundedField('system', f.system, 200);
  const metric = boundedField('metric', f.metric, 200);
  for (const [name, v] of [
    ['min', f.min],
    ['max', f.max],
  ] as const)
    if (v !== undefined && !Number.isFinite(v))
      throw new InvalidInputError(`${name}: expected a finite number, received ${v}`, { field: name });
  if (f.min !== undefined && f.max !== undefined && f.min > f.max)
    throw new InvalidInputError(`min: ${f.min} is above max ${f.max}; give min <= max`, { field: 'min' });
  return {
    ...(system ? { system } : {}),
    ...(metric ? { metric } : {}),
    ...(f.min !== undefined ? { min: f.min } : {}),
    ...(f.max !== undefined ? { max: f.max } : {}),
    ...(f.failed !== undefined ? { failed: f.failed } : {}),
  };
}
