import { Controller, Get, Param, Query, UseFilters, UseGuards } from '@nestjs/common';
import { SAMPLE_ORDERS, SAMPLE_SORTS } from '@precis/engine';
import {
  DEFAULT_SAMPLES_PAGE,
  MAX_SAMPLES_OFFSET,
  MAX_SAMPLES_PAGE,
  SamplesService,
} from '../runs/samples.service.js';
import { RestKeyGuard } from './rest-auth.guard.js';
import { RestErrorsFilter } from './rest-errors.filter.js';
import { queryChoice, queryInt, queryNumber, queryText } from './rest-query.js';

// A run's per-summary values over REST (/api/v1), as gRPC's ListSamples and GetSideBySide give them.
@Controller('api/v1')
@UseGuards(RestKeyGuard)
@UseFilters(RestErrorsFilter)
export class SamplesRestController {
  constructor(private readonly samples: SamplesService) {}

  // One page of the samples table: `?system=&metric=&min=&max=&failed=true|false`,
  // `?sort=system|document|metric|value|producedBy&order=asc|desc`, `?offset=&limit=`.
  @Get('runs/:id/samples')
  list(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    const failed = queryChoice('failed', query.failed, ['true', 'false'] as const);
    return this.samples.list(id, {
      system: queryText('system', query.system),
      metric: queryText('metric', query.metric),
      min: queryNumber('min', query.min),
      max: queryNumber('max', query.max),
      ...(failed ? { failed: failed === 'true' } : {}),
      sort: queryChoice('sort', query.sort, SAMPLE_SORTS),
      order: queryChoice('order', query.order, SAMPLE_ORDERS),
      offset: queryInt('offset', query.offset, { min: 0, max: MAX_SAMPLES_OFFSET }) ?? 0,
      limit: queryInt('limit', query.limit, { min: 1, max: MAX_SAMPLES_PAGE }) ?? DEFAULT_SAMPLES_PAGE,
    });
  }

  // Each system's final summary of the document beside its scores.
  @Get('runs/:id/side-by-side/:document')
  sideBySide(@Param('id') id: string, @Param('document') document: string) {
    return this.samples.sideBySide(id, document);
  }
}
