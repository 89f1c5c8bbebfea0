import type { Core } from '@strapi/strapi';
import { loginPageRoutes } from './controllers/cli-login-page';
import { publicPageRoutes } from './controllers/public-pages';
import { ensureIndexes } from './services/indexes';
import { ARTICLE_INDEXES } from './services/store';
import { subscribeUploadOwner } from './upload-extension';

export default async ({ strapi }: { strapi: Core.Strapi }) => {
  await ensureIndexes(strapi, [
    { table: 'quire_api_keys', columns: ['hash'], unique: true },
    { table: 'quire_api_keys', columns: ['user_id'] },
    { table: 'quire_cli_logins', columns: ['device_code_hash'], unique: true },
    { table: 'quire_cli_logins', columns: ['user_code_hash'] },
    ...ARTICLE_INDEXES,
    { table: 'files', columns: ['user_id'] },
  ]);
  subscribeUploadOwner(strapi);
  // The CLI login approval page lives outside /api, at the root (as the GraphQL plugin mounts /graphql).
  strapi.server.routes(loginPageRoutes(strapi));
  // So are the public copies of published articles, /p/{slug} and /p/{slug}.md.
  strapi.server.routes(publicPageRoutes(strapi));
};
