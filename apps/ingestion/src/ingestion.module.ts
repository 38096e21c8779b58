import { Module } from '@nestjs/common';
import { IngestJobModule } from '@precis/service';

@Module({ imports: [IngestJobModule] })
export class IngestionModule {}
