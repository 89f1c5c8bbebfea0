import authenticate from './authenticate';
import rawBody from './raw-body';
import redactQuery from './redact-query';

export default { authenticate, rawBody, redactQuery };
