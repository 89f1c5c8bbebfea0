import type { Core } from '@strapi/strapi';
import { registerPrefixes } from '#kernel/envelope';
import { declareRoutes } from '#kernel/routes';
import { registerTriggerCredentials } from './credentials';
import { routes } from './routes';

/** URL prefixes of the trigger service: everything under them answers in the envelope. */
export const URL_PREFIXES = ['/api/organizations', '/api/process-instances', '/api/skills', '/webhook', '/status'];

export default ({ strapi }: { strapi: Core.Strapi }) => {
  registerPrefixes(strapi, 'triggers', URL_PREFIXES);
  declareRoutes(strapi, 'triggers', routes);
  registerTriggerCredentials(strapi);
};
