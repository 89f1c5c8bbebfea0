import type { Core } from '@strapi/strapi';
import { controller } from '#kernel/routes';
import { getService } from '../services/get-service';
import { presenceRoutes } from '../routes/presence';

export default ({ strapi }: { strapi: Core.Strapi }) =>
  controller(presenceRoutes, {
    get: async ({ params, caller }) => ({ present: await getService(strapi, 'live').presence(caller.userId, getService(strapi, 'articleIds').uuid(params.id)) }),
  });
