import type { SampleQuery, SampleSort } from './api-schema';

// What the samples table asks the server for: filters, then one sorted column.
export interface SampleView {
  system: string;
  metric: string;
  // As typed; "" is no bound.
  min: string;
  max: string;
  // '' both, 'true' failed only (a null value), 'false' scored only.
  failed: '' | 'true' | 'false';
  sort: SampleSort | null;
  order: 'asc' | 'desc';
}

export const NO_FILTERS: SampleView = {
  system: '',
  metric: '',
  min: '',
  max: '',
  failed: '',
  sort: null,
  order: 'asc',
};

export const isFiltered = (v: SampleView): boolean =>
  v.system !== '' || v.metric !== '' || v.min.trim() !== '' || v.max.trim() !== '' || v.failed !== '';

// The query of the samples endpoint for a view (without offset and limit), empty parts left out;
// a bound that is not a number is sent as NaN, which the server refuses with its reason.
export function sampleQuery(v: SampleView): SampleQuery {
  const q: SampleQuery = {};
  if (v.system) q.system = v.system;
  if (v.metric) q.metric = v.metric;
  if (v.min.trim()) q.min = Number(v.min.trim());
  if (v.max.trim()) q.max = Number(v.max.trim());
  if (v.failed) q.failed = v.failed;
  if (v.sort) {
    q.sort = v.sort;
    q.order = v.order;
  }
  return q;
}

// A click on a column's header: sort by it ascending, or reverse it if it is the sorted one.
export function toggleSort(v: SampleView, sort: SampleSort): SampleView {
  if (v.sort === sort) return { ...v, order: v.order === 'asc' ? 'desc' : 'asc' };
  return { ...v, sort, order: 'asc' };
}
