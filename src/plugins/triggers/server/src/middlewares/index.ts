import { guardMiddleware } from '#kernel/routes';
import rawBody from './raw-body';
import redactQuery from './redact-query';

/** `guard`: the route middleware of every content-api route (kernel/routes.ts). */
export default { guard: guardMiddleware, rawBody, redactQuery };
