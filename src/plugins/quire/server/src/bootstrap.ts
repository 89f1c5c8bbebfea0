import type { Core } from '@strapi/strapi';
import { ensureIndexes } from './services/indexes';

export default async ({ strapi }: { strapi: Core.Strapi }) => {
  await ensureIndexes(strapi, [
    { table: 'quire_api_keys', columns: ['hash'], unique: true },
    { table: 'quire_api_keys', columns: ['user_id'] },
  ]);
};
