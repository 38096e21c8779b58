import { createDataSource, createThrowawayDatabase } from '@precis/db';
import { describeImportSuite } from './import-suite.js';

describeImportSuite('PostgreSQL', async () => {
  const db = await createThrowawayDatabase('ingest_import');
  const ds = await createDataSource({ url: db.url });
  return {
    ds,
    async close() {
      await ds.destroy();
      await db.drop();
    },
  };
});
