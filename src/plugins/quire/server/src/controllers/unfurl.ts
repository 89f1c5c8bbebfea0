import type { Core } from '@strapi/strapi';
import { controller } from '#kernel/routes';
import { unfurlRoutes } from '../routes/media';
import { getService } from '../services/get-service';

export default ({ strapi }: { strapi: Core.Strapi }) =>
  controller(unfurlRoutes, {
    preview: ({ query, caller }) => getService(strapi, 'unfurl').preview(caller.userId, query.url),
  });
