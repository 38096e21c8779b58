import {
  type GetSideBySideResponse,
  type ListSamplesRequest,
  type ListSamplesResponse,
  SampleSort,
} from '@precis/contracts';
import { InvalidInputError, type SamplePage, type SampleQuery, type SideBySide } from '@precis/engine';
import { DEFAULT_SAMPLES_PAGE, MAX_SAMPLES_OFFSET, MAX_SAMPLES_PAGE } from '../samples.service.js';

const SORTS: Record<SampleSort, SampleQuery['sort']> = {
  [SampleSort.SAMPLE_SORT_UNSPECIFIED]: undefined,
  [SampleSort.SAMPLE_SORT_SYSTEM]: 'system',
  [SampleSort.SAMPLE_SORT_DOCUMENT]: 'document',
  [SampleSort.SAMPLE_SORT_METRIC]: 'metric',
  [SampleSort.SAMPLE_SORT_VALUE]: 'value',
  [SampleSort.SAMPLE_SORT_PRODUCED_BY]: 'producedBy',
  [SampleSort.UNRECOGNIZED]: undefined,
};

// A ListSamples request as the engine's query: limit 0 is the default page, a larger one the
// largest; a negative offset or limit, or an unknown sort, is refused.
export function fromProtoSampleQuery(r: ListSamplesRequest): SampleQuery {
  const sort = r.sort ?? SampleSort.SAMPLE_SORT_UNSPECIFIED;
  if (!(sort in SORTS) || sort === SampleSort.UNRECOGNIZED)
    throw new InvalidInputError(`sort: unknown value ${sort}`, { field: 'sort' });
  const offset = r.offset ?? 0;
  if (offset < 0 || offset > MAX_SAMPLES_OFFSET)
    throw new InvalidInputError(`offset: expected 0 to ${MAX_SAMPLES_OFFSET}, got ${offset}`, {
      field: 'offset',
    });
  const limit = r.limit ?? 0;
  if (limit < 0) throw new InvalidInputError(`limit: must be >= 0, got ${limit}`, { field: 'limit' });
  return {
    system: r.system ?? '',
    metric: r.metric ?? '',
    ...(r.minValue !== undefined ? { min: r.minValue } : {}),
    ...(r.maxValue !== undefined ? { max: r.maxValue } : {}),
    ...(r.failed !== undefined ? { failed: r.failed } : {}),
    sort: SORTS[sort],
    order: r.descending ? 'desc' : 'asc',
    offset,
    limit: limit === 0 ? DEFAULT_SAMPLES_PAGE : Math.min(limit, MAX_SAMPLES_PAGE),
  };
}

// A failed sample's value (null) is left unset.
export function toProtoSamplePage(p: SamplePage): ListSamplesResponse {
  return {
    total: p.total,
    offset: p.offset,
    samples: p.samples.map((s) => ({
      document: s.document,
      documentId: s.documentId,
      system: s.system,
      metric: s.metric,
      ...(s.value === null ? {} : { value: s.value }),
      producedBy: s.producedBy,
    })),
    systems: p.systems,
    metrics: p.metrics,
  };
}

export function toProtoSideBySide(v: SideBySide): GetSideBySideResponse {
  return {
    documentId: v.document.id,
    document: v.document.externalId,
    metrics: v.metrics,
    systems: v.systems.map((s) => ({
      system: s.system,
      strategy: s.strategy ?? '',
      ...(s.summary === null ? {} : { summary: s.summary }),
      producer: s.producer ?? '',
      finalStep: s.finalStep ?? '',
      values: s.values.map((x) => ({
        metric: x.metric,
        ...(x.value === null ? {} : { value: x.value }),
        producedBy: x.producedBy,
        failure: x.failure ?? '',
      })),
    })),
  };
}
