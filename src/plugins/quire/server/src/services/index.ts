import auth from './auth';
import keys from './keys';
import rateLimit from './rate-limit';
import redis from './redis';
import unfurl from './unfurl';
import upload from './upload';

export default { auth, keys, rateLimit, redis, upload, unfurl };
