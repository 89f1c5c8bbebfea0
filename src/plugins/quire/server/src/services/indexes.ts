import type { Core } from '@strapi/strapi';

export interface IndexSpec {
  table: string;
  columns: string[];
  unique?: boolean;
}

/**
 * Strapi has no supported per-attribute index, so hot lookups get their indexes here,
 * idempotently, at every boot. Schema sync leaves indexes it did not create alone.
 */
export async function ensureIndexes(strapi: Core.Strapi, specs: IndexSpec[]) {
  const knex = strapi.db.connection;
  for (const spec of specs) {
    const name = `${spec.table}_${spec.columns.join('_')}_${spec.unique ? 'uq' : 'idx'}`.slice(0, 63);
    const columns = spec.columns.map((c) => knex.raw('??', [c]).toQuery()).join(', ');
    await knex.raw(`CREATE ${spec.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ?? ON ?? (${columns})`, [name, spec.table]);
  }
}
