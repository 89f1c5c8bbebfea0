import type { Core } from '@strapi/strapi';

export default async ({ strapi }: { strapi: Core.Strapi }) => {
  strapi.plugin('quire').service('oauth').stopSweeps();
  strapi.plugin('quire').service('adminArticles').stopSweeps();
  // Live documents first: their pending stores still need the database and the event bus.
  await strapi.plugin('quire').service('live').close();
  // Mentions stop waiting for their skills (a reply not posted yet is not posted).
  await strapi.plugin('quire').service('threads').close();
  await strapi.plugin('quire').service('workers').close();
  await strapi.plugin('quire').service('events').close();
  await strapi.plugin('quire').service('redis').close();
};
