import { Controller, Get, Header, UseFilters } from '@nestjs/common';
import { webPageHtml } from '@precis/web';
import { RestErrorsFilter } from './rest-errors.filter.js';

// The web leaderboard: one page (script and style inline) that reads the REST API with the
// visitor's key. Open like the health checks: it holds no data.
@Controller()
@UseFilters(RestErrorsFilter)
export class WebPageController {
  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  page(): string {
    return webPageHtml({ title: 'Precis' });
  }
}
