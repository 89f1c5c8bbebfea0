import type { Core } from '@strapi/strapi';
import { controller } from '#kernel/routes';
import { uploadRoutes } from '../routes/media';
import { getService } from '../services/get-service';

export default ({ strapi }: { strapi: Core.Strapi }) =>
  controller(uploadRoutes, {
    /** The raw body is the file: strapi::body leaves image/* bodies unread, so ctx.req is still a stream. */
    create: ({ caller }, ctx) =>
      getService(strapi, 'upload').fromRequest(caller.userId, ctx.req, {
        contentType: ctx.get('content-type') || undefined,
        contentLength: ctx.get('content-length') || undefined,
        contentEncoding: ctx.get('content-encoding') || undefined,
        filename: ctx.get('x-filename') || undefined,
      }),
  });
