import { Controller, Get, Param, Query, UseFilters, UseGuards } from '@nestjs/common';
import { MAX_CALLS_PAGE, TranscriptsService } from '../runs/transcripts.service.js';
import { RestKeyGuard } from './rest-auth.guard.js';
import { RestErrorsFilter } from './rest-errors.filter.js';
import { queryInt, queryText } from './rest-query.js';

// A run's transcripts and facts over REST (/api/v1), as gRPC's GetDocumentTrace,
// ListDocumentCalls and GetRunFacts give them.
@Controller('api/v1')
@UseGuards(RestKeyGuard)
@UseFilters(RestErrorsFilter)
export class TranscriptsRestController {
  constructor(private readonly transcripts: TranscriptsService) {}

  // Every stored step and verdict of one document of the run (`precis runs show --trace`).
  @Get('runs/:id/traces/:document')
  trace(@Param('id') id: string, @Param('document') document: string) {
    return this.transcripts.trace(id, document);
  }

  // The model calls behind the document, a page at a time (`?system=`, `?limit=`, `?pageToken=`).
  @Get('runs/:id/traces/:document/calls')
  async calls(
    @Param('id') id: string,
    @Param('document') document: string,
    @Query() query: Record<string, unknown>,
  ) {
    const page = await this.transcripts.calls(id, document, {
      system: queryText('system', query.system),
      pageSize: queryInt('limit', query.limit, { min: 1, max: MAX_CALLS_PAGE }),
      pageToken: queryText('pageToken', query.pageToken),
    });
    return {
      document: page.document,
      total: page.total,
      calls: page.calls,
      nextPageToken: page.nextPageToken,
    };
  }

  // The run's spec as stored, its models with their registry entries (never keys), templates, seed.
  @Get('runs/:id/facts')
  facts(@Param('id') id: string) {
    return this.transcripts.facts(id);
  }
}
