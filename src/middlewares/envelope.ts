/** `global::envelope` (config/middlewares.ts): the kernel's error envelope. */
import { envelopeMiddleware } from '../kernel/envelope';

export default envelopeMiddleware;
