import { Inject, Injectable, Optional } from '@nestjs/common';
import type { GetLeaderboardRequest, LeaderboardSection, Run, RunStatus } from '@precis/contracts';
import { RunEntity } from '@precis/db';
import {
  cancelRun,
  countCachedFailures,
  crossRunBlocks,
  crossRunLeaderboard,
  endedWithFailures,
  type FamilyRegistry,
  findRun,
  hasResults,
  InvalidInputError,
  loadFullRunReport,
  NotFoundError,
  type ReportFormat,
  type RunListFigures,
  RunNotFoundError,
  RunStateError,
  reportJson,
  reportSections,
  runBatches,
  runBlockedBy,
  runListFigures,
  runPageData,
  stageCounts,
  storedHeadlines,
  usageSoFar,
} from '@precis/engine';
import { loadedFamilies } from '@precis/families';
import { parseMetaQuery, runMetaQuery } from '@precis/meta';
import { FAMILIES } from '@precis/service';
import { DataSource } from 'typeorm';
import { boundedField, cut, decodePageToken, encodePageToken, pageSize } from '../grpc/page-token.js';
import { renderBlocksAs, renderRunReportAs } from '../report-html.js';
import { fromProtoRunStatus, taskCountsMap, toProtoRun } from './dto/run.mapper.js';
import { toProtoSection } from './dto/section.mapper.js';

const MAX_RUN_REF = 100;
const REPORT_FORMATS: readonly ReportFormat[] = ['md', 'csv', 'json', 'html', 'text'];
const MAX_REASON = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function listedRun(run: RunEntity, figures?: RunListFigures): Run {
  const extras = figures && {
    taskCounts: taskCountsMap(figures.tasks),
    cost: figures,
    headline: figures.headline,
  };
  return {
    ...toProtoRun(run, extras),
    specJson: '',
    name: cut(run.name, 200),
    error: cut(run.error ?? '', 500),
  };
}

// Reads and state changes of runs, straight from the database (the source of truth).
@Injectable()
export class RunsService {
  private readonly families: FamilyRegistry;

  constructor(
    private readonly dataSource: DataSource,
    @Optional() @Inject(FAMILIES) families?: FamilyRegistry,
  ) {
    this.families = families ?? loadedFamilies();
  }

  async get(ref: string): Promise<Run> {
    const run = await this.find(ref);
    const [counts, usage, headlines, batches] = await Promise.all([
      stageCounts(this.dataSource, run.id),
      usageSoFar(this.dataSource, run.id),
      storedHeadlines(this.dataSource, [run.id]),
      runBatches(this.dataSource, run.id),
    ]);
    const blockedBy = await runBlockedBy(this.dataSource, run.status, counts);
    const headline = headlines.get(run.id);
    const cachedFailedTasks = endedWithFailures(run.status)
      ? await countCachedFailures(this.dataSource, run.id)
      : 0;
    return toProtoRun(run, {
      taskCounts: taskCountsMap(counts),
      usage,
      blockedBy,
      headline,
      cachedFailedTasks,
      batches,
    });
  }

  // One page of runs, newest first (keyset on created_at, id). A listed run leaves out its spec and
  // cuts its error and name, so a page stays far below the gRPC message limit; GetRun has them whole.
  async list(request: {
    status?: RunStatus;
    limit?: number;
    pageSize?: number;
    pageToken?: string;
  }): Promise<{ runs: Run[]; nextPageToken: string }> {
    const take = pageSize(request.pageSize || request.limit);
    const wanted = request.status ? fromProtoRunStatus(request.status) : null;
    if (request.status && !wanted)
      throw new InvalidInputError(`status: unknown run status ${request.status}`, { field: 'status' });
    const after = decodePageToken(`runs:${wanted ?? ''}`, request.pageToken);
    const q = this.dataSource
      .getRepository(RunEntity)
      .createQueryBuilder('r')
      .orderBy('r.created_at', 'DESC')
      .addOrderBy('r.id', 'DESC')
      .take(take + 1);
    if (wanted) q.andWhere('r.status = :wanted', { wanted });
    if (after) {
      if (!UUID.test(after) || !(await this.dataSource.getRepository(RunEntity).existsBy({ id: after })))
        throw new InvalidInputError(
          'page_token: the run it continues from was deleted; start again without a token',
          { field: 'page_token' },
        );
      q.andWhere('(r.created_at, r.id) < (SELECT created_at, id FROM runs WHERE id = :after)', { after });
    }
    const rows = await q.getMany();
    const page = rows.slice(0, take);
    const last = page.at(-1);
    // Counts, cost and headline of the whole page in a few queries, not a few per run.
    const figures = await runListFigures(this.dataSource, page);
    return {
      runs: page.map((r) => listedRun(r, figures.get(r.id))),
      nextPageToken: rows.length > take && last ? encodePageToken(`runs:${wanted ?? ''}`, last.id) : '',
    };
  }

  // Marks an unfinished run cancelled: the planner creates no more tasks and workers skip the
  // queued ones (they check the run's status first); tasks already running finish. Cancelling a
  // finished run changes nothing. The run's error records who cancelled it (the key's name).
  async cancel(ref: string, reason: string, by: string): Promise<Run> {
    boundedField('reason', reason, MAX_REASON);
    const run = await this.find(ref);
    const why = `${reason.trim() || 'cancelled'} (by API key ${by})`;
    await cancelRun(this.dataSource, run.id, why).catch((err: unknown) => {
      if (!(err instanceof RunStateError)) throw err;
    });
    return this.get(run.id);
  }

  // The object `precis report --format json` prints (REST answers it without a text round trip).
  async reportJson(ref: string, alpha?: number): Promise<Record<string, unknown>> {
    const run = await this.find(ref);
    return reportJson(await loadFullRunReport(this.families, this.dataSource, run, { alpha }));
  }

  // The run's leaderboards as `precis report` renders them (the gateway has the families), and as
  // sections; alpha 0 is the spec's.
  async report(
    ref: string,
    format: string,
    wide: boolean,
    alpha = 0,
  ): Promise<{ text: string; hasResults: boolean; sections: LeaderboardSection[] }> {
    if (!REPORT_FORMATS.includes(format as ReportFormat))
      throw new InvalidInputError(`format: "${format}" is not one of ${REPORT_FORMATS.join(', ')}`, {
        field: 'format',
      });
    if (alpha !== 0 && !(alpha > 0 && alpha < 1))
      throw new InvalidInputError(`alpha: expected a number in (0, 1) or 0 for the spec's, got ${alpha}`, {
        field: 'alpha',
      });
    const run = await this.find(ref);
    const report = await loadFullRunReport(this.families, this.dataSource, run, alpha ? { alpha } : {});
    return {
      text: renderRunReportAs(report, format as ReportFormat, { wide }),
      hasResults: hasResults(report),
      sections: reportSections(report).map(toProtoSection),
    };
  }

  // The cross-run leaderboard, rendered as `precis leaderboard` renders it.
  // `precis meta correlate|leaderboard --remote`: the result as JSON for the client to render.
  // A bad query is a MetaInputError, itself invalid input.
  async meta(queryJson: string): Promise<{ resultJson: string }> {
    return { resultJson: JSON.stringify(await runMetaQuery(this.dataSource, parseMetaQuery(queryJson))) };
  }

  async leaderboard(request: GetLeaderboardRequest): Promise<{ text: string }> {
    const format = (request.format || 'text') as ReportFormat;
    if (!REPORT_FORMATS.includes(format))
      throw new InvalidInputError(`format: "${format}" is not one of ${REPORT_FORMATS.join(', ')}`, {
        field: 'format',
      });
    if (request.runIds.length === 0 || request.runIds.length > 50)
      throw new InvalidInputError('run_ids: give 1 to 50 runs', { field: 'run_ids' });
    for (const ref of request.runIds) boundedField('run_ids', ref, MAX_RUN_REF);
    try {
      const board = await crossRunLeaderboard(this.dataSource, request.runIds, {
        ...(request.metric ? { metric: request.metric } : {}),
        ...(request.alpha > 0 ? { alpha: request.alpha } : {}),
        ...(request.resamples > 0 ? { resamples: request.resamples } : {}),
      });
      if (format === 'json') return { text: `${JSON.stringify(board, null, 2)}\n` };
      const title = `Leaderboard over ${request.runIds.length} run(s)`;
      return { text: renderBlocksAs(title, crossRunBlocks(board), format, { wide: request.wide }) };
    } catch (err) {
      if (err instanceof RunNotFoundError) throw new NotFoundError(err.message, { cause: err });
      throw err;
    }
  }

  // What the web page draws of a run: its report blocks, sections and figures.
  async view(ref: string, alpha?: number) {
    const run = await this.find(ref);
    const [report, batches] = await Promise.all([
      loadFullRunReport(this.families, this.dataSource, run, { alpha }),
      runBatches(this.dataSource, run.id),
    ]);
    return { ...runPageData(report), ...(batches.batches.length ? { batches } : {}) };
  }

  private async find(ref: string): Promise<RunEntity> {
    if (!ref.trim()) throw new InvalidInputError('run_id is empty', { field: 'run_id' });
    boundedField('run_id', ref, MAX_RUN_REF);
    try {
      return await findRun(this.dataSource, ref);
    } catch (err) {
      if (err instanceof RunNotFoundError) throw new NotFoundError(err.message, { cause: err });
      throw err;
    }
  }
}
