import { Inject, Injectable, Optional } from '@nestjs/common';
import type { RunEntity } from '@precis/db';
import {
  type CallPage,
  CallPageError,
  type DocumentTrace,
  documentCalls,
  documentTrace,
  type FamilyRegistry,
  findRun,
  findRunDocument,
  InvalidInputError,
  NotFoundError,
  type RunFacts,
  RunNotFoundError,
  runFacts,
} from '@precis/engine';
import { loadedFamilies } from '@precis/families';
import { FAMILIES } from '@precis/service';
import { DataSource } from 'typeorm';
import { boundedField, decodePageToken, encodePageToken } from '../grpc/page-token.js';
import { RunDriver } from './run-driver.provider.js';

export const DEFAULT_CALLS_PAGE = 20;
export const MAX_CALLS_PAGE = 100;
// Characters of call JSON a page holds at most (UTF-8: at most 3 MB), under gRPC's 4 MiB default.
const MAX_PAGE_CHARS = 1_000_000;

// A run's transcripts (a document's steps, verdicts and model calls) and its own facts, for the
// page, REST and gRPC alike.
@Injectable()
export class TranscriptsService {
  private readonly families: FamilyRegistry;

  constructor(
    private readonly dataSource: DataSource,
    private readonly driver: RunDriver,
    @Optional() @Inject(FAMILIES) families?: FamilyRegistry,
  ) {
    this.families = families ?? loadedFamilies();
  }

  trace(ref: string, document: string): Promise<DocumentTrace> {
    boundedField('document', document, 200);
    return this.found(async () =>
      documentTrace(this.families, this.dataSource, await this.run(ref), document),
    );
  }

  // One page of the calls behind a document (of one system when `system` is given).
  calls(
    ref: string,
    document: string,
    page: { system?: string; pageSize?: number; pageToken?: string },
  ): Promise<CallPage & { document: { id: string; externalId: string }; nextPageToken: string }> {
    boundedField('document', document, 200);
    const system = boundedField('system', page.system, 100);
    const size = page.pageSize ?? 0;
    if (size < 0) throw new InvalidInputError(`page_size: must be >= 0, got ${size}`, { field: 'page_size' });
    const limit = size === 0 ? DEFAULT_CALLS_PAGE : Math.min(size, MAX_CALLS_PAGE);
    return this.found(async () => {
      const run = await this.run(ref);
      const doc = await findRunDocument(this.dataSource, run, document);
      const list = `calls:${run.id}:${doc.id}:${system}`;
      const after = decodePageToken(list, page.pageToken);
      const got = await documentCalls(this.dataSource, run, doc.id, {
        system,
        after,
        limit,
        maxChars: MAX_PAGE_CHARS,
      });
      return {
        ...got,
        document: { id: doc.id, externalId: doc.externalId },
        nextPageToken: got.next ? encodePageToken(list, got.next) : '',
      };
    });
  }

  // The run's spec, models (this gateway's registry entries), templates and seed.
  facts(ref: string): Promise<RunFacts> {
    return this.found(async () =>
      runFacts(this.families, this.dataSource, await this.run(ref), this.driver.registry),
    );
  }

  private run(ref: string): Promise<RunEntity> {
    if (!ref.trim()) throw new InvalidInputError('run_id is empty', { field: 'run_id' });
    boundedField('run_id', ref, 100);
    return findRun(this.dataSource, ref);
  }

  private async found<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof RunNotFoundError) throw new NotFoundError(err.message, { cause: err });
      if (err instanceof CallPageError)
        throw new InvalidInputError(`page_token: ${err.message}`, { field: 'page_token' }, { cause: err });
      throw err;
    }
  }
}
