import type { Core } from '@strapi/strapi';
import { routes } from '../routes';
import { serveMcp } from '../mcp/server';
import { buildTools } from '../mcp/tools';

/** POST /api/mcp: the tools are built once from the declared routes; each request gets a fresh server. */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  let tools: ReturnType<typeof buildTools> | undefined;
  return {
    handle: (ctx) => serveMcp(strapi, (tools ??= buildTools(routes)), ctx),
  };
};
