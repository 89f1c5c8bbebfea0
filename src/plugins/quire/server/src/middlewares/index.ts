import { guardMiddleware } from '#kernel/routes';
import authRateLimit from './auth-rate-limit';
import oauthErrors from './oauth-errors';
import uploadHeaders from './upload-headers';

/**
 * `guard`: the route middleware of every content-api route (kernel/routes.ts). App-level ones
 * (config/middlewares.ts): `authRateLimit`, users-permissions' credential routes limited per
 * address; `oauthErrors`, body failures under /oauth in the OAuth format; `uploadHeaders`.
 */
export default { authRateLimit, guard: guardMiddleware, oauthErrors, uploadHeaders };
