import type { Core } from '@strapi/strapi';
import { mountRootRoutes } from '#kernel/routes';
import { warmCompiler } from './domain/input-schema';
import { TRIGGERS_ACTION_DEFINITIONS } from './permissions';
import { routes } from './routes';
import { getService } from './services/get-service';

export default async ({ strapi }: { strapi: Core.Strapi }) => {
  // The admin panel's permission actions (plugin::triggers.read, .manage), before the admin's
  // own bootstrap gives the Super Admin role every registered action.
  await strapi.service('admin::permission').actionProvider.registerMany(TRIGGERS_ACTION_DEFINITIONS);

  // The trigger and status URLs live at the root, mounted the way the GraphQL plugin mounts /graphql.
  mountRootRoutes(strapi, 'triggers', routes);
  // The first inputSchema a process compiles pays the validator's setup: here, not in a trigger.
  warmCompiler();
  await getService(strapi, 'runner').start();
};
