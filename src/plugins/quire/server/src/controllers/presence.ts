import type { Core } from '@strapi/strapi';
import { controller } from '#kernel/routes';
import { articleUuid } from '../repositories/store';
import { presenceRoutes } from '../routes/presence';

export default ({ strapi }: { strapi: Core.Strapi }) =>
  controller(presenceRoutes, {
    get: async ({ params, caller }) => ({ present: await strapi.plugin('quire').service('live').presence(caller.userId, articleUuid(params.id)) }),
  });
