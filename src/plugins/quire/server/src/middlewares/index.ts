import { guardMiddleware } from '../../../../../kernel/routes';
import oauthErrors from './oauth-errors';
import uploadHeaders from './upload-headers';

/** `guard`: the route middleware of every content-api route (kernel/routes.ts). `oauthErrors`: body failures under /oauth in the OAuth format. */
export default { guard: guardMiddleware, uploadHeaders, oauthErrors };
