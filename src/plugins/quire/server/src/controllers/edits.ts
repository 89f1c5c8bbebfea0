import type { Core } from '@strapi/strapi';
import { parseIfMatch } from '../../../../../kernel/conditional';
import { controller, reply } from '../../../../../kernel/routes';
import { outlineTag } from '../domain/etags';
import { editRoutes } from '../routes/edits';
import type { EditOutcome } from '../services/edit-types';
import { actorOf, credentialOf, preconditionOf } from './conditional';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const edits = () => strapi.plugin('quire').service('edits');
  return controller(editRoutes, {
    apply: async ({ params, body, caller }, ctx) => {
      // The body's ifMatch, else the If-Match header: both are the outline's ETag.
      const ifMatch = body.ifMatch !== undefined ? parseIfMatch(body.ifMatch, 'ifMatch') : preconditionOf(ctx);
      if (caller.scope === 'suggest' && !body.dryRun) {
        // A suggest key's edits are not applied: they become a suggestion (202). A dry run writes
        // nothing for anyone (CONTRACT 11), so it is answered as such, and no suggestion is filed.
        return reply(202, await strapi.plugin('quire').service('suggestions').create(caller.userId, params.id, body.ops, { actor: await actorOf(strapi, caller), credential: credentialOf(caller), ifMatch }));
      }
      const outcome: EditOutcome = await edits().apply(caller.userId, params.id, body.ops, { actor: await actorOf(strapi, caller), dryRun: body.dryRun, ifMatch });
      const rev = body.dryRun ? outcome.outlineRev - 1 : outcome.outlineRev;
      return reply(200, { results: outcome.results, outline: outcome.outline.entries() }, { ETag: outlineTag(outcome.articleUuid, rev) });
    },
  });
};
