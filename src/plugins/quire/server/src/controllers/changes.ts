import type { Core } from '@strapi/strapi';
import { controller, reply } from '#kernel/routes';
import { changeRoutes } from '../routes/changes';
import { getService } from '../services/get-service';
import { actorOf, credentialOf } from './conditional';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const changes = () => getService(strapi, 'changeSets');
  /** A suggest key's revert: the revert's edits, filed as a suggestion (202). */
  const suggestRevert = async (caller, articleId: string, which: { anchor?: string; run?: string }) =>
    reply(
      202,
      await getService(strapi, 'suggestions').create(caller.userId, articleId, await changes().revertOps(caller.userId, articleId, which), {
        actor: await actorOf(strapi, caller),
        credential: credentialOf(caller),
      }),
    );
  return controller(changeRoutes, {
    list: ({ params, query, caller }) => changes().list(caller.userId, params.id, query),
    get: ({ params, caller }) => changes().get(caller.userId, params.id, params.anchor),
    revert: {
      apply: async ({ params, body, caller }) => changes().revert(caller.userId, params.id, { anchor: params.anchor }, { actor: await actorOf(strapi, caller), dryRun: body.dryRun }),
      suggest: ({ params, caller }) => suggestRevert(caller, params.id, { anchor: params.anchor }),
    },
    revertRun: {
      apply: async ({ params, body, caller }) => changes().revert(caller.userId, params.id, { run: body.run }, { actor: await actorOf(strapi, caller), dryRun: body.dryRun }),
      suggest: ({ params, body, caller }) => suggestRevert(caller, params.id, { run: body.run }),
    },
    authors: ({ params, caller }) => changes().authors(caller.userId, params.id, params.sid),
    authorship: ({ params, caller }) => changes().authorship(caller.userId, params.id),
  });
};
