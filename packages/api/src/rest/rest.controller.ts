import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  type MessageEvent,
  Param,
  Post,
  Query,
  Sse,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { RUN_STATUSES } from '@precis/db';
import { crossRunLeaderboard, deleteRun, findRun, specDepthProblem } from '@precis/engine';
import { SERVICE_INFO, type ServiceInfo } from '@precis/service';
import type { Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import { MAX_PAGE_SIZE } from '../grpc/page-token.js';
import { IngestionService } from '../ingestion/ingestion.service.js';
import { ImportDatasetUseCase } from '../ingestion/usecases/import-dataset.usecase.js';
import { toProtoRunStatus } from '../runs/dto/run.mapper.js';
import { RunsService } from '../runs/runs.service.js';
import { CreateRunUseCase } from '../runs/usecases/create-run.usecase.js';
import { openApiDocument } from './openapi.js';
import { NeedsWrite, RestKeyGuard } from './rest-auth.guard.js';
import {
  cancelBody,
  createBody,
  IMPORT_STATUS,
  importBody,
  toDatasetDto,
  toRunDto,
  toRunShowDto,
} from './rest-dto.js';
import { RestErrorsFilter } from './rest-errors.filter.js';
import { queryChoice, queryFraction, queryInt, queryRunIds, queryText } from './rest-query.js';
import { runProgressEvents } from './run-events.js';

// A report's significance level from `?alpha=`; absent: the spec's (else 0.05).
const reportAlpha = (query: Record<string, unknown>) =>
  queryFraction('alpha', query.alpha, { above: 0, below: 1 });

// The REST API (/api/v1): thin translations to the services the gRPC API uses.
@Controller('api/v1')
@UseGuards(RestKeyGuard)
@UseFilters(RestErrorsFilter)
export class RestController {
  constructor(
    private readonly runs: RunsService,
    private readonly creator: CreateRunUseCase,
    private readonly datasets: IngestionService,
    private readonly importer: ImportDatasetUseCase,
    private readonly dataSource: DataSource,
  ) {}

  @Get('runs')
  async listRuns(@Query() query: Record<string, unknown>) {
    const status = queryChoice('status', query.status, RUN_STATUSES);
    const page = await this.runs.list({
      ...(status ? { status: toProtoRunStatus(status) } : {}),
      limit: queryInt('limit', query.limit, { min: 1, max: MAX_PAGE_SIZE }),
      pageToken: queryText('pageToken', query.pageToken),
    });
    return { runs: page.runs.map(toRunDto), nextPageToken: page.nextPageToken };
  }

  // Paths in the spec resolve as for gRPC: absolute, or under the gateway's INGEST_ROOT.
  @Post('runs')
  @NeedsWrite()
  async createRun(@Body() body: unknown) {
    const b = createBody.parse(body ?? {});
    // Before anything recurses into it (JSON.stringify would overflow the stack).
    const tooDeep = b.spec === undefined ? null : specDepthProblem(b.spec);
    if (tooDeep) throw new BadRequestException(`spec: ${tooDeep}`);
    const spec = b.spec === undefined ? {} : { specJson: JSON.stringify(b.spec) };
    const yaml = b.specYaml === undefined ? {} : { specYaml: b.specYaml };
    const { run, resumed } = await this.creator.execute(
      { ...spec, ...yaml, fresh: b.fresh === true, skipPreflight: b.skipPreflight === true },
      undefined,
    );
    return { run: toRunDto(run!), resumed };
  }

  // Deletes a finished (or cancelled, interrupted) run and its results; its ledger rows stay.
  // An open run is a RunStateError (409).
  @Delete('runs/:id')
  @NeedsWrite()
  async deleteRun(@Param('id') id: string) {
    const run = await findRun(this.dataSource, id);
    await deleteRun(this.dataSource, run.id);
    return { deleted: run.id };
  }

  @Get('runs/:id')
  async showRun(@Param('id') id: string) {
    const run = await this.runs.get(id);
    return toRunShowDto(run);
  }

  // Live progress as server-sent events (`progress`), until the run reaches a final status.
  @Sse('runs/:id/events')
  async events(@Param('id') id: string): Promise<Observable<MessageEvent>> {
    const run = await findRun(this.dataSource, id);
    return runProgressEvents(this.dataSource, run.id);
  }

  // The report's blocks, sections and figures, as the web page draws them.
  @Get('runs/:id/view')
  view(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.runs.view(id, reportAlpha(query));
  }

  // The same JSON as `precis report <run> --format json` (`?alpha=` as its --alpha).
  @Get('runs/:id/report')
  report(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.runs.reportJson(id, reportAlpha(query));
  }

  @Post('runs/:id/cancel')
  @HttpCode(200)
  @NeedsWrite()
  async cancel(@Param('id') id: string, @Body() body: unknown) {
    const { reason } = cancelBody.parse(body ?? {});
    const run = await this.runs.cancel(id, reason ?? '', 'rest');
    return toRunShowDto(run);
  }

  // The systems of several runs ranked on one per-document metric (as `precis leaderboard`); runs
  // or a metric that make no board are a LeaderboardError (400).
  @Get('leaderboard')
  leaderboard(@Query() query: Record<string, unknown>) {
    const runs = queryRunIds(query.runs);
    const metric = queryText('metric', query.metric);
    const alpha = queryFraction('alpha', query.alpha, { above: 0, below: 1 }) ?? 0.05;
    return crossRunLeaderboard(this.dataSource, runs, { ...(metric ? { metric } : {}), alpha });
  }

  @Get('datasets/:name')
  async showDataset(@Param('name') name: string) {
    return { dataset: toDatasetDto(await this.datasets.get(name)) };
  }

  // Waits for the ingestion service to import the file (as `precis ingest --remote`).
  @Post('datasets')
  @NeedsWrite()
  async importDataset(@Body() body: unknown) {
    const b = importBody.parse(body ?? {});
    const res = await this.importer.execute({
      kind: b.kind,
      path: b.path,
      datasetName: b.name,
      replace: b.replace === true,
      ...(b.documents ? { documentsPath: b.documents } : {}),
    });
    return { status: IMPORT_STATUS[res.status] ?? 'imported', dataset: toDatasetDto(res.dataset!) };
  }

  @Get('datasets')
  async listDatasets(@Query() query: Record<string, unknown>) {
    const page = await this.datasets.list({
      kind: queryText('kind', query.kind),
      pageToken: queryText('pageToken', query.pageToken),
    });
    return { datasets: page.datasets.map(toDatasetDto), nextPageToken: page.nextPageToken };
  }
}

// The OpenAPI document, open like the health checks.
@Controller('api')
@UseFilters(RestErrorsFilter)
export class OpenApiController {
  constructor(@Inject(SERVICE_INFO) private readonly info: ServiceInfo) {}

  @Get('openapi.json')
  document() {
    return openApiDocument(this.info.version);
  }
}
