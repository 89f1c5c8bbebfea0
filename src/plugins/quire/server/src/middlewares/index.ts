import { guardMiddleware } from '../../../../../kernel/routes';
import uploadHeaders from './upload-headers';

/** `guard`: the route middleware of every content-api route (kernel/routes.ts). */
export default { guard: guardMiddleware, uploadHeaders };
