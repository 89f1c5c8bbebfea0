import type { Core } from '@strapi/strapi';
import { parseIfMatch } from '#kernel/conditional';
import { controller, reply } from '#kernel/routes';
import { outlineTag } from '../domain/etags';
import { editRoutes } from '../routes/edits';
import type { EditOutcome } from '../services/edit-types';
import { getService } from '../services/get-service';
import { actorOf, credentialOf, precondition } from './conditional';

/** The body's ifMatch, else the If-Match header: both are the outline's ETag. */
const outlinePrecondition = (body: { ifMatch?: string }, ifMatch: string | undefined) => (body.ifMatch !== undefined ? parseIfMatch(body.ifMatch, 'ifMatch') : precondition(ifMatch));

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const edits = () => getService(strapi, 'edits');
  return controller(editRoutes, {
    apply: {
      apply: async ({ params, body, headers, caller }) => {
        const outcome: EditOutcome = await edits().apply(caller.userId, params.id, body.ops, {
          actor: await actorOf(strapi, caller),
          dryRun: body.dryRun,
          ifMatch: outlinePrecondition(body, headers['If-Match']),
        });
        const rev = body.dryRun ? outcome.outlineRev - 1 : outcome.outlineRev;
        return reply(200, { results: outcome.results, outline: outcome.outline.entries() }, { ETag: outlineTag(outcome.articleUuid, rev) });
      },
      // A suggest credential's edits are not applied: they become a suggestion (202). Its dry
      // runs write nothing for anyone (CONTRACT 11): the route declares them `apply`'s.
      suggest: async ({ params, body, headers, caller }) => {
        const ifMatch = outlinePrecondition(body, headers['If-Match']);
        return reply(202, await getService(strapi, 'suggestions').create(caller.userId, params.id, body.ops, { actor: await actorOf(strapi, caller), credential: credentialOf(caller), ifMatch }));
      },
    },
  });
};
