/**
 * Threads from the canvas (routes/admin-threads.ts): the threads service called for the
 * article's owner, with the editor as who comments. An editor is a person: an @skill in their
 * comment starts that skill as a session user's would. Their comments count against a budget of
 * their own (`admin:<id>`), apart from the users' credentials.
 */
import type { Core } from '@strapi/strapi';
import { adminController, reply } from '#kernel/routes';
import { adminThreadRoutes } from '../routes/admin-threads';
import { getService } from '../services/get-service';
import type { Commenter } from '../services/threads';
import { editorOf } from './conditional';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const threads = () => getService(strapi, 'threads');
  const ownerOf = async (ctx, articleId: string) => (await getService(strapi, 'adminArticles').actorFor(Number(ctx.state.user.id), articleId)).actor.ownerId;
  const commenter = (ctx): Commenter => ({ actor: editorOf(ctx), credential: `admin:${ctx.state.user.id}`, person: true });
  return adminController(adminThreadRoutes, {
    list: async ({ params, query }, ctx) => ({ data: await threads().list(await ownerOf(ctx, params.id), params.id, query) }),
    create: async ({ params, body }, ctx) => reply(201, await threads().create(await ownerOf(ctx, params.id), params.id, body, commenter(ctx))),
    reply: async ({ params, body }, ctx) => reply(201, await threads().reply(await ownerOf(ctx, params.id), params.id, params.anchor, body.body, commenter(ctx))),
    resolve: async ({ params }, ctx) => ({ data: await threads().setStatus(await ownerOf(ctx, params.id), params.id, params.anchor, 'resolved', commenter(ctx)) }),
    reopen: async ({ params }, ctx) => ({ data: await threads().setStatus(await ownerOf(ctx, params.id), params.id, params.anchor, 'open', commenter(ctx)) }),
  });
};
