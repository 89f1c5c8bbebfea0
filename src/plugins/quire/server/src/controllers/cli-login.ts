import type { Core } from '@strapi/strapi';
import { controller } from '#kernel/routes';
import { DEFAULT_DEVICE_NAME } from '../domain/device-login';
import { cliLoginRoutes } from '../routes/cli-login';
import { getService } from '../services/get-service';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const logins = () => getService(strapi, 'cliLogin');
  return controller(cliLoginRoutes, {
    request: ({ body }, ctx) => logins().request(body.name ?? DEFAULT_DEVICE_NAME, ctx.request.ip ?? ''),
    complete: ({ body }, ctx) => logins().complete(body.deviceCode, ctx.request.ip ?? ''),
  });
};
