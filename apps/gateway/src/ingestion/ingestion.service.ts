import { Injectable } from '@nestjs/common';
import { GrpcNotFoundException } from '@nestjs/microservices';
import type { Dataset } from '@precis/contracts';
import { DatasetNotFoundError, getDatasetSummary, listDatasets } from '@precis/ingest';
import { DataSource } from 'typeorm';
import { toProtoDataset } from './dto/dataset.mapper.js';

// Reads of imported datasets, straight from the database.
@Injectable()
export class IngestionService {
  constructor(private readonly dataSource: DataSource) {}

  async list(kind: string): Promise<Dataset[]> {
    const all = await listDatasets(this.dataSource);
    const wanted = kind.trim();
    return all.filter((d) => wanted === '' || d.kind === wanted).map(toProtoDataset);
  }

  async get(name: string): Promise<Dataset> {
    try {
      return toProtoDataset(await getDatasetSummary(this.dataSource, name));
    } catch (err) {
      if (err instanceof DatasetNotFoundError) throw new GrpcNotFoundException(err.message);
      throw err;
    }
  }
}
