import type { Core } from '@strapi/strapi';
import type { UserCaller } from '../../../../../contracts/credentials';
import { controller, reply } from '#kernel/routes';
import { sectionRoutes } from '../routes/sections';
import { getService } from '../services/get-service';
import { actorOf, credentialOf, precondition, tagged } from './conditional';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const sections = () => getService(strapi, 'sections');
  /** Who writes: the section's ETag (PATCH, DELETE, move) is checked by the write itself. */
  const sectionWrite = async (caller: UserCaller, ifMatch: string | undefined) => ({ actor: await actorOf(strapi, caller), ifMatch });
  /**
   * A `suggest` credential's section write is not applied: the pipeline serves it here, as a
   * suggestion of the one op (202). The route declares it (suggestible).
   */
  const suggest = async (caller: UserCaller, articleId: string, ops, outlineIfMatch?: string) =>
    reply(
      202,
      await getService(strapi, 'suggestions').create(caller.userId, articleId, ops, {
        actor: await actorOf(strapi, caller),
        credential: credentialOf(caller),
        single: true,
        ifMatch: precondition(outlineIfMatch),
      }),
    );
  return controller(sectionRoutes, {
    add: {
      apply: async ({ params, body, headers, caller }) => {
        const { data, etag } = await sections().add(caller.userId, params.id, body.markdown, body, { actor: await actorOf(strapi, caller), outlineIfMatch: precondition(headers['If-Match']) });
        return reply(201, data, { ETag: etag });
      },
      suggest: ({ params, body, headers, caller }) => suggest(caller, params.id, [{ op: 'insert', markdown: body.markdown, after: body.after, before: body.before }], headers['If-Match']),
    },
    get: async ({ params, query, headers, caller }) => {
      const { section, etag } = await sections().getTagged(caller.userId, params.id, params.sid, { as: query.as });
      return tagged(headers['If-None-Match'], { section }, etag);
    },
    replace: {
      apply: async ({ params, body, headers, caller }) => {
        const { data, etag } = await sections().replace(caller.userId, params.id, params.sid, body, await sectionWrite(caller, headers['If-Match']));
        return reply(200, data, { ETag: etag });
      },
      suggest: ({ params, body, headers, caller }) => suggest(caller, params.id, [{ op: 'replace', section: params.sid, ...body, ifMatch: headers['If-Match'] }]),
    },
    move: {
      apply: async ({ params, body, headers, caller }) => {
        const { data, etag } = await sections().move(caller.userId, params.id, params.sid, body, await sectionWrite(caller, headers['If-Match']));
        return reply(200, data, { ETag: etag });
      },
      suggest: ({ params, body, headers, caller }) => suggest(caller, params.id, [{ op: 'move', section: params.sid, after: body.after, before: body.before, ifMatch: headers['If-Match'] }]),
    },
    remove: {
      apply: async ({ params, headers, caller }) => {
        const { data, etag } = await sections().remove(caller.userId, params.id, params.sid, await sectionWrite(caller, headers['If-Match']));
        return reply(200, data, { ETag: etag });
      },
      suggest: ({ params, headers, caller }) => suggest(caller, params.id, [{ op: 'delete', section: params.sid, ifMatch: headers['If-Match'] }]),
    },
  });
};
