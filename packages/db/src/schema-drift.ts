import type { DataSource } from 'typeorm';

// The SQL the entities would still need on this database (after its migrations ran): empty means
// entities and migrations agree. Uses TypeORM's own schema builder, i.e. what
// `typeorm migration:generate` would write.
export async function findSchemaDrift(ds: DataSource): Promise<string[]> {
  const sql = await ds.driver.createSchemaBuilder().log();
  return sql.upQueries.map((q) => q.query);
}
