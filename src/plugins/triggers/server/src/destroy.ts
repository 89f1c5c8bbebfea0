import type { Core } from '@strapi/strapi';

export default async ({ strapi }: { strapi: Core.Strapi }) => {
  await strapi.plugin('triggers').service('runner').stop();
};
