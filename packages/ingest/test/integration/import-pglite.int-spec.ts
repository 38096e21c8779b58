import { createDataSource } from '@precis/db';
import { describeImportSuite } from './import-suite.js';

describeImportSuite('PGlite (embedded)', async () => {
  const ds = await createDataSource({ inMemory: true });
  return { ds, close: () => ds.destroy() };
});
