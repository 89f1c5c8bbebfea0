import type { Core } from '@strapi/strapi';
import { registerPrefixes } from '#kernel/envelope';
import { declareRoutes } from '#kernel/routes';
import { routes } from './routes';
import { registerUserCredentials } from './services/auth';
import { extendUploadPlugin } from './upload-extension';

/** URL prefixes of the article service: everything under them answers in the envelope. */
export const URL_PREFIXES = ['/api/articles', '/api/keys', '/api/auth/me', '/api/upload', '/api/unfurl', '/api/cli', '/api/search', '/api/mcp', '/api/oauth'];

export default ({ strapi }: { strapi: Core.Strapi }) => {
  registerPrefixes(strapi, 'quire', URL_PREFIXES);
  declareRoutes(strapi, 'quire', routes);
  registerUserCredentials(strapi);
  extendUploadPlugin(strapi);
};
