import type { Core } from '@strapi/strapi';
import { getService } from './services/get-service';

export default async ({ strapi }: { strapi: Core.Strapi }) => {
  await getService(strapi, 'runner').stop();
};
