import type { Core } from '@strapi/strapi';
import { ok } from './respond';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** The raw body is the file: strapi::body leaves image/* bodies unread, so ctx.req is still a stream. */
  async create(ctx) {
    const data = await strapi.plugin('quire').service('upload').fromRequest(ctx.state.user.id, ctx.req, {
      contentType: ctx.get('content-type') || undefined,
      contentLength: ctx.get('content-length') || undefined,
      contentEncoding: ctx.get('content-encoding') || undefined,
      filename: ctx.get('x-filename') || undefined,
    });
    ok(ctx, { ...data }, 201);
  },
});
