import type { Core } from '@strapi/strapi';
import { controller } from '#kernel/routes';
import { principalOf } from '../domain/principal';
import { skillRoutes } from '../routes';
import { getService } from '../services/get-service';

/** GET /api/skills: an organization key's skills, or those of an organization a user owns. */
export default ({ strapi }: { strapi: Core.Strapi }) =>
  controller(skillRoutes, {
    list: async ({ query, caller }) => ({ skills: await getService(strapi, 'skills').listFor(principalOf(caller), query.organizationId) }),
  });
