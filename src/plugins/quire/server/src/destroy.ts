import type { Core } from '@strapi/strapi';
import { getService } from './services/get-service';

export default async ({ strapi }: { strapi: Core.Strapi }) => {
  getService(strapi, 'oauth').stopSweeps();
  getService(strapi, 'adminArticles').stopSweeps();
  // Live documents first: their pending stores still need the database and the event bus.
  await getService(strapi, 'live').close();
  // Mentions stop waiting for their skills and let the waits go: the next process to start takes them over.
  await getService(strapi, 'threads').close();
  await getService(strapi, 'workers').close();
  await getService(strapi, 'events').close();
  await getService(strapi, 'redis').close();
};
