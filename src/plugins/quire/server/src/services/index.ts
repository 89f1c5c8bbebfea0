import auth from './auth';
import keys from './keys';
import rateLimit from './rate-limit';
import redis from './redis';

export default { auth, keys, rateLimit, redis };
