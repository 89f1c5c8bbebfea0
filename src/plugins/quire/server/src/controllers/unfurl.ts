import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { parseInput } from '../domain/validation';
import { ok } from './respond';

export const unfurlQuery = z.object({
  url: z.string('url must be a single string.').trim().min(1, 'must not be empty'),
});

const NEXT = 'Pass the link as ?url=<encoded-url>.';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async preview(ctx) {
    const { url } = parseInput(unfurlQuery, { url: ctx.query.url }, NEXT);
    ok(ctx, { ...(await strapi.plugin('quire').service('unfurl').preview(ctx.state.user.id, url)) });
  },
});
