import type { Core } from '@strapi/strapi';

export default async ({ strapi }: { strapi: Core.Strapi }) => {
  strapi.plugin('quire').service('oauth').stopSweeps();
  strapi.plugin('quire').service('adminArticles').stopSweeps();
  await strapi.plugin('quire').service('workers').close();
  await strapi.plugin('quire').service('events').close();
  await strapi.plugin('quire').service('redis').close();
};
