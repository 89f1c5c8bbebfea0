import type { Core } from '@strapi/strapi';
import { readCapped } from '#kernel/capped-stream';
import { ApiError } from '#kernel/errors';

/** 1 MiB, the trigger route's body limit. */
export const TRIGGER_BODY_LIMIT = 1_048_576;
/** Marks a body this middleware has already read; koa-body parses no such content type. */
const CONSUMED_TYPE = 'application/x-quire-consumed';

const tooLarge = () =>
  new ApiError('payload-too-large', `The request body is larger than ${TRIGGER_BODY_LIMIT} bytes (1 MiB).`, 'Send a smaller payload.', { status: 413 });

/**
 * Global middleware placed before 'strapi::body'. A signature covers the exact bytes sent, and
 * koa-body would consume JSON bodies into a parsed object; so for trigger requests this reads
 * the raw bytes itself, with the 1 MiB cap enforced while reading (and on Content-Length,
 * before reading), and keeps them in ctx.state.rawBody (what the authenticator verifies signatures against). It then swaps the request's
 * content type for one koa-body does not parse, so koa-body does not try to read the spent
 * stream; the original stays in ctx.state.triggerContentType.
 */
export default (_config: unknown, _ctx: { strapi: Core.Strapi }) => {
  return async (ctx, next) => {
    if (ctx.method !== 'POST' || !ctx.path.startsWith('/webhook/')) return next();
    const declared = Number(ctx.get('content-length'));
    if (Number.isFinite(declared) && declared > TRIGGER_BODY_LIMIT) throw tooLarge();
    ctx.state.rawBody = await readCapped(ctx.req, TRIGGER_BODY_LIMIT, tooLarge);
    ctx.state.triggerContentType = ctx.get('content-type');
    ctx.req.headers['content-type'] = CONSUMED_TYPE;
    return next();
  };
};
