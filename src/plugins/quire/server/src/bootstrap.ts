import type { Core } from '@strapi/strapi';
import { ensureIndexes } from './services/indexes';
import { subscribeUploadOwner } from './upload-extension';
import { ARTICLE_INDEXES } from './services/store';

export default async ({ strapi }: { strapi: Core.Strapi }) => {
  await ensureIndexes(strapi, [
    { table: 'quire_api_keys', columns: ['hash'], unique: true },
    { table: 'quire_api_keys', columns: ['user_id'] },
    { table: 'files', columns: ['user_id'] },
    ...ARTICLE_INDEXES,
  ]);
  subscribeUploadOwner(strapi);
};
