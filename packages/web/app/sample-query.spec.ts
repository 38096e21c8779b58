import { describe, expect, it } from '@jest/globals';
import { isFiltered, NO_FILTERS, sampleQuery, toggleSort } from './sample-query';

describe('sampleQuery', () => {
  it('asks for nothing without filters or a sort', () => {
    expect(sampleQuery(NO_FILTERS)).toEqual({});
    expect(isFiltered(NO_FILTERS)).toBe(false);
  });

  it('sends each filter and the sort, bounds as numbers', () => {
    const view = {
      ...NO_FILTERS,
      system: 'gpt 4',
      metric: 'kgds:cao-r',
      min: ' 0.5',
      max: '2 ',
      failed: 'false' as const,
      sort: 'producedBy' as const,
      order: 'desc' as const,
    };
    expect(sampleQuery(view)).toEqual({
      system: 'gpt 4',
      metric: 'kgds:cao-r',
      min: 0.5,
      max: 2,
      failed: 'false',
      sort: 'producedBy',
      order: 'desc',
    });
    expect(sampleQuery({ ...NO_FILTERS, min: 'abc' }).min).toBeNaN();
    expect(isFiltered(view)).toBe(true);
  });

  it('counts a sort alone as no filter', () => {
    expect(isFiltered({ ...NO_FILTERS, sort: 'value', order: 'desc' })).toBe(false);
    expect(sampleQuery({ ...NO_FILTERS, failed: 'true' })).toEqual({ failed: 'true' });
  });
});

describe('toggleSort', () => {
  it('sorts a new column ascending, and reverses the sorted one', () => {
    const byValue = toggleSort(NO_FILTERS, 'value');
    expect([byValue.sort, byValue.order]).toEqual(['value', 'asc']);
    expect(toggleSort(byValue, 'value').order).toBe('desc');
    expect(toggleSort(toggleSort(byValue, 'value'), 'value').order).toBe('asc');
    const byDoc = toggleSort({ ...byValue, order: 'desc' }, 'document');
    expect([byDoc.sort, byDoc.order]).toEqual(['document', 'asc']);
  });
});
