import type { Core } from '@strapi/strapi';
import { controller, reply } from '../../../../../kernel/routes';
import { sectionRoutes } from '../routes/sections';
import { actorOf, credentialOf, ifMatchOf, preconditionOf, tagged } from './conditional';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const sections = () => strapi.plugin('quire').service('sections');
  /** Who writes and under which precondition: the section's ETag (PATCH, DELETE, move) or the outline's (POST). */
  const writeOf = async (caller, ctx, target: 'section' | 'outline') => ({
    actor: await actorOf(strapi, caller),
    ...(target === 'section' ? { ifMatch: ifMatchOf(ctx) } : { outlineIfMatch: preconditionOf(ctx) }),
  });
  /** A `suggest` credential's section write is not applied: it becomes a suggestion (202). */
  const suggest = async (caller, params, ops, ctx, outline = false) =>
    reply(
      202,
      await strapi
        .plugin('quire')
        .service('suggestions')
        .create(caller.userId, params.id, ops, { actor: await actorOf(strapi, caller), credential: credentialOf(caller), single: true, ifMatch: outline ? preconditionOf(ctx) : undefined }),
    );
  return controller(sectionRoutes, {
    add: async ({ params, body, caller }, ctx) => {
      if (caller.scope === 'suggest') return suggest(caller, params, [{ op: 'insert', markdown: body.markdown, after: body.after, before: body.before }], ctx, true);
      const { data, etag } = await sections().add(caller.userId, params.id, body.markdown, body, await writeOf(caller, ctx, 'outline'));
      return reply(201, data, { ETag: etag });
    },
    get: async ({ params, query, caller }, ctx) => {
      const { section, etag } = await sections().getTagged(caller.userId, params.id, params.sid, { as: query.as });
      return tagged(ctx, { section }, etag);
    },
    replace: async ({ params, body, caller }, ctx) => {
      if (caller.scope === 'suggest') return suggest(caller, params, [{ op: 'replace', section: params.sid, ...body, ifMatch: ifMatchOf(ctx) }], ctx);
      const { data, etag } = await sections().replace(caller.userId, params.id, params.sid, body, await writeOf(caller, ctx, 'section'));
      return reply(200, data, { ETag: etag });
    },
    move: async ({ params, body, caller }, ctx) => {
      if (caller.scope === 'suggest') return suggest(caller, params, [{ op: 'move', section: params.sid, after: body.after, before: body.before, ifMatch: ifMatchOf(ctx) }], ctx);
      const { data, etag } = await sections().move(caller.userId, params.id, params.sid, body, await writeOf(caller, ctx, 'section'));
      return reply(200, data, { ETag: etag });
    },
    remove: async ({ params, caller }, ctx) => {
      if (caller.scope === 'suggest') return suggest(caller, params, [{ op: 'delete', section: params.sid, ifMatch: ifMatchOf(ctx) }], ctx);
      const { data, etag } = await sections().remove(caller.userId, params.id, params.sid, await writeOf(caller, ctx, 'section'));
      return reply(200, data, { ETag: etag });
    },
  });
};
