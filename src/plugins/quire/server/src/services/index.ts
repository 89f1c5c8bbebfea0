import auth from './auth';
import cliLogin from './cli-login';
import keys from './keys';
import rateLimit from './rate-limit';
import redis from './redis';

export default { auth, cliLogin, keys, rateLimit, redis };
