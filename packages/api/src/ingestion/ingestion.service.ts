import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Dataset } from '@precis/contracts';
import { DatasetEntity } from '@precis/db';
import { type FamilyRegistry, NotFoundError } from '@precis/engine';
import { loadedFamilies } from '@precis/families';
import { DatasetNotFoundError, getDatasetSummary, toDatasetSummary } from '@precis/ingest';
import { FAMILIES } from '@precis/service';
import { DataSource } from 'typeorm';
import { boundedField, decodePageToken, encodePageToken, pageSize } from '../grpc/page-token.js';
import { toProtoDataset } from './dto/dataset.mapper.js';

// Reads of imported datasets, straight from the database.
@Injectable()
export class IngestionService {
  constructor(
    private readonly dataSource: DataSource,
    @Optional() @Inject(FAMILIES) families?: FamilyRegistry,
  ) {
    this.kinds = (families ?? loadedFamilies()).datasetKinds;
  }

  // The registered dataset kinds: the order each lists its counts in.
  private readonly kinds: FamilyRegistry['datasetKinds'];

  // One page of datasets by name (keyset on the unique name).
  async list(request: {
    kind?: string;
    pageSize?: number;
    pageToken?: string;
  }): Promise<{ datasets: Dataset[]; nextPageToken: string }> {
    const kind = boundedField('kind', request.kind, 50);
    const take = pageSize(request.pageSize);
    const list = `datasets:${kind}`;
    const after = decodePageToken(list, request.pageToken);
    const q = this.dataSource
      .getRepository(DatasetEntity)
      .createQueryBuilder('d')
      .orderBy('d.name', 'ASC')
      .take(take + 1);
    if (kind) q.andWhere('d.kind = :kind', { kind });
    if (after !== null) q.andWhere('d.name > :after', { after });
    const rows = await q.getMany();
    const page = rows.slice(0, take);
    const last = page.at(-1);
    return {
      datasets: page.map((row) => toProtoDataset(toDatasetSummary(row, this.kinds))),
      nextPageToken: rows.length > take && last ? encodePageToken(list, last.name) : '',
    };
  }

  async get(name: string): Promise<Dataset> {
    boundedField('name', name, 100);
    try {
      return toProtoDataset(await getDatasetSummary(this.dataSource, name, this.kinds));
    } catch (err) {
      if (err instanceof DatasetNotFoundError) throw new NotFoundError(err.message, { cause: err });
      throw err;
    }
  }
}
