import type { SampleSort } from './api-types';

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

// The query string of the samples endpoint for a view (without offset and limit), empty parts left out.
export function sampleQueryString(v: SampleView): string {
  const q = new URLSearchParams();
  if (v.system) q.set('system', v.system);
  if (v.metric) q.set('metric', v.metric);
  if (v.min.trim()) q.set('min', v.min.trim());
  if (v.max.trim()) q.set('max', v.max.trim());
  if (v.failed) q.set('failed', v.failed);
  if (v.sort) {
    q.set('sort', v.sort);
    q.set('order', v.order);
  }
  return q.toString();
}

// A click on a column's header: sort by it ascending, or reverse it if it is the sorted one.
export function toggleSort(v: SampleView, sort: SampleSort): SampleView {
  if (v.sort === sort) return { ...v, order: v.order === 'asc' ? 'desc' : 'asc' };
  return { ...v, sort, order: 'asc' };
}
