import type { Core } from '@strapi/strapi';
import { controller, reply, type Handler } from '#kernel/routes';
import type { UserCaller } from '../../../../../contracts/credentials';
import { threadRoutes } from '../routes/threads';
import { getService } from '../services/get-service';
import type { Commenter } from '../services/threads';
import { actorOf, credentialOf } from './conditional';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const threads = () => getService(strapi, 'threads');
  /** Who comments: people (JWT, session) may start skills by mentioning them; API keys and OAuth clients never do. */
  const commenter = async (caller: UserCaller): Promise<Commenter> => ({
    actor: await actorOf(strapi, caller),
    credential: credentialOf(caller),
    person: caller.via === 'session',
  });
  // Commenting is talking, not editing: a suggest credential is served like a write one.
  const create: Handler<typeof threadRoutes.create> = async ({ params, body, caller }) => reply(201, await threads().create(caller.userId, params.id, body, await commenter(caller)));
  const answer: Handler<typeof threadRoutes.reply> = async ({ params, body, caller }) =>
    reply(201, await threads().reply(caller.userId, params.id, params.anchor, body.body, await commenter(caller)));
  const resolve: Handler<typeof threadRoutes.resolve> = async ({ params, caller }) => threads().setStatus(caller.userId, params.id, params.anchor, 'resolved', await commenter(caller));
  const reopen: Handler<typeof threadRoutes.reopen> = async ({ params, caller }) => threads().setStatus(caller.userId, params.id, params.anchor, 'open', await commenter(caller));
  return controller(threadRoutes, {
    create: { apply: create, suggest: create },
    list: ({ params, query, caller }) => threads().list(caller.userId, params.id, query),
    get: ({ params, caller }) => threads().get(caller.userId, params.id, params.anchor),
    reply: { apply: answer, suggest: answer },
    resolve: { apply: resolve, suggest: resolve },
    reopen: { apply: reopen, suggest: reopen },
  });
};
