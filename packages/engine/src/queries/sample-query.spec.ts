import { describe, expect, it } from '@jest/globals';
import { buildSampleQuery, distinctSampleColumn, sampleOrderBy, sampleWhere } from './sample-query.js';

const RUN = '11111111-2222-3333-4444-555555555555';
const squash = (sql: string) => sql.replace(/\s+/g, ' ').trim();

describe('sampleWhere', () => {
  it("keeps a run's per-summary rows only, with no filter", () => {
    expect(sampleWhere(RUN, {})).toEqual({
      text: 'mv.run_id = $1 AND mv.document_id IS NOT NULL',
      params: [RUN],
    });
  });

  it('numbers each given filter after the run id, in a fixed order', () => {
    expect(sampleWhere(RUN, { max: 0.9, metric: 'kgds:cao-r', min: 0.25, system: 'lead' })).toEqual({
      text: 'mv.run_id = $1 AND mv.document_id IS NOT NULL AND mv.system = $2 AND mv.metric = $3 AND mv.value >= $4 AND mv.value <= $5',
      params: [RUN, 'lead', 'kgds:cao-r', 0.25, 0.9],
    });
  });

  it('takes failed as a null value, and its opposite as a value', () => {
    expect(sampleWhere(RUN, { failed: true, system: 'x' }).text).toBe(
      'mv.run_id = $1 AND mv.document_id IS NOT NULL AND mv.system = $2 AND mv.value IS NULL',
    );
    expect(sampleWhere(RUN, { failed: false }).text).toBe(
      'mv.run_id = $1 AND mv.document_id IS NOT NULL AND mv.value IS NOT NULL',
    );
  });

  it('binds a bound of 0 (not dropped as falsy) and never inlines a value', () => {
    const where = sampleWhere(RUN, { min: 0, system: "x' OR 1=1 --" });
    expect(where.params).toEqual([RUN, "x' OR 1=1 --", 0]);
    expect(where.text).not.toContain('OR 1=1');
  });
});

describe('sampleOrderBy', () => {
  it('defaults to system, document and metric ascending (the order of ix_metric_values_samples)', () => {
    expect(sampleOrderBy()).toBe('mv.system ASC, mv.document_id ASC, mv.metric ASC');
  });

  it('sorts a failed value lowest: first ascending, last descending', () => {
    expect(sampleOrderBy('value', 'asc')).toBe(
      'mv.value ASC NULLS FIRST, mv.system ASC, mv.document_id ASC, mv.metric ASC',
    );
    expect(sampleOrderBy('value', 'desc')).toBe(
      'mv.value DESC NULLS LAST, mv.system DESC, mv.document_id DESC, mv.metric DESC',
    );
  });

  it("orders a metric's values by value, and breaks every tie on the row's unique key", () => {
    expect(sampleOrderBy('metric', 'desc')).toBe(
      'mv.metric DESC, mv.value DESC NULLS LAST, mv.system DESC, mv.document_id DESC',
    );
    expect(sampleOrderBy('producedBy', 'asc')).toBe(
      'mv.produced_by ASC, mv.system ASC, mv.document_id ASC, mv.metric ASC',
    );
  });
});

describe('buildSampleQuery', () => {
  it('counts with the filters only, and pages with limit and offset after them', () => {
    const { count, page } = buildSampleQuery(RUN, {
      system: 'lead',
      sort: 'value',
      order: 'desc',
      offset: 400,
      limit: 200,
    });
    expect(count).toEqual({
      text: 'SELECT count(*) AS n FROM metric_values mv WHERE mv.run_id = $1 AND mv.document_id IS NOT NULL AND mv.system = $2',
      params: [RUN, 'lead'],
    });
    expect(page.params).toEqual([RUN, 'lead', 200, 400]);
    const sql = squash(page.text);
    // The keys of the page first (the index walk), then its rows and documents, in the same order.
    expect(sql).toContain(
      'SELECT mv.system, mv.document_id, mv.metric FROM metric_values mv WHERE mv.run_id = $1 AND mv.document_id IS NOT NULL AND mv.system = $2 ORDER BY mv.value DESC NULLS LAST, mv.system DESC, mv.document_id DESC, mv.metric DESC LIMIT $3 OFFSET $4) k',
    );
    expect(sql).toMatch(
      /JOIN documents d ON d\.id = mv\.document_id ORDER BY mv\.value DESC NULLS LAST, mv\.system DESC, mv\.document_id DESC, mv\.metric DESC$/,
    );
  });

  it("sorts by document through each document's count of matching values", () => {
    const { page } = buildSampleQuery(RUN, {
      failed: true,
      sort: 'document',
      order: 'desc',
      offset: 0,
      limit: 50,
    });
    expect(page.params).toEqual([RUN, 50, 0]);
    const sql = squash(page.text);
    expect(sql).toContain(
      'SELECT mv.document_id, count(*) AS n FROM metric_values mv WHERE mv.run_id = $1 AND mv.document_id IS NOT NULL AND mv.value IS NULL GROUP BY mv.document_id',
    );
    expect(sql).toContain('sum(c.n) OVER (ORDER BY d.external_id DESC, c.document_id DESC) - c.n AS before');
    expect(sql).toContain('WHERE before < $3::bigint + $2::bigint AND before + n > $3::bigint');
    expect(sql).toContain('PARTITION BY mv.document_id ORDER BY mv.system DESC, mv.metric DESC');
    expect(sql).toMatch(/WHERE pos > \$3::bigint AND pos <= \$3::bigint \+ \$2::bigint ORDER BY pos$/);
  });
});

describe('distinctSampleColumn', () => {
  it("walks the run's distinct values one index probe at a time", () => {
    const sql = squash(distinctSampleColumn('metric'));
    expect(sql).toContain(
      '(SELECT metric AS x FROM metric_values WHERE run_id = $1 AND document_id IS NOT NULL ORDER BY metric LIMIT 1)',
    );
    expect(sql).toContain('AND metric > v.x ORDER BY metric LIMIT 1) FROM v WHERE v.x IS NOT NULL');
  });
});
