import type { Core } from '@strapi/strapi';
import { mountRootRoutes } from '#kernel/routes';
import { routes } from './routes';
import { QUIRE_ACTION_DEFINITIONS } from './permissions';
import { backfillHtmlText, ensureSearchIndex } from './repositories/search-index';
import { subscribeUploadOwner } from './upload-extension';
import { subscribeCredentialChanges } from './credential-changes';
import { getService } from './services/get-service';
import { registerThreadWebhooks } from './thread-webhooks';

export default async ({ strapi }: { strapi: Core.Strapi }) => {
  subscribeUploadOwner(strapi);
  // Rate limits shared through Redis (REDIS_URL) count there from the first request on.
  await getService(strapi, 'redis').connect();
  // After schema sync, every boot: the search index and its triggers (see repositories/search-index.ts for why not a migration).
  await ensureSearchIndex(strapi);
  await backfillHtmlText(strapi);
  // A password change or a block ends the user's web sessions and OAuth grants (not API keys).
  subscribeCredentialChanges(strapi);
  // thread.created, comment.created, thread.resolved as webhook events (CONTRACT 24).
  registerThreadWebhooks(strapi);
  // Expired OAuth tokens and clients never used are deleted now and hourly.
  await getService(strapi, 'oauth').startSweeps();
  // Mentions whose skill replies a stopped process was waiting for: taken over now and every half minute.
  await getService(strapi, 'threads').start();
  // Articles deleted from the panel more than 30 days ago are purged now and hourly.
  await getService(strapi, 'adminArticles').startSweeps();
  // The admin panel's permission actions (plugin::quire.read, ...), before the admin's own
  // bootstrap gives the Super Admin role every registered action.
  await strapi.service('admin::permission').actionProvider.registerMany(QUIRE_ACTION_DEFINITIONS);
  // The routes outside the content API: the CLI login routes and approval page, and the public
  // copies of published articles (mounted at the root, as the GraphQL plugin mounts /graphql).
  mountRootRoutes(strapi, 'quire', routes);
  // The live canvas's WebSocket (/quire/live) on Strapi's own HTTP server.
  getService(strapi, 'live').start();
  // Change set events an operator can pick in Settings > Webhooks (CONTRACT 23).
  getService(strapi, 'changeSets').registerWebhookEvents();
};
