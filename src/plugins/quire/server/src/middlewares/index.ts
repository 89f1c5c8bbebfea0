import { guardMiddleware } from '../../../../../kernel/routes';
import authRateLimit from './auth-rate-limit';
import uploadHeaders from './upload-headers';

/** `guard`: the route middleware of every content-api route (kernel/routes.ts). */
export default { authRateLimit, guard: guardMiddleware, uploadHeaders };
