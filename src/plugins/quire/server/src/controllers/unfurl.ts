import type { Core } from '@strapi/strapi';
import { controller } from '../../../../../kernel/routes';
import { unfurlRoutes } from '../routes/media';

export default ({ strapi }: { strapi: Core.Strapi }) =>
  controller(unfurlRoutes, {
    preview: ({ query, caller }) => strapi.plugin('quire').service('unfurl').preview(caller.userId, query.url),
  });
