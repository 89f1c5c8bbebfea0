import articles from './articles';
import auth from './auth';
import keys from './keys';
import notes from './notes';
import rateLimit from './rate-limit';
import redis from './redis';
import sections from './sections';
import unfurl from './unfurl';
import upload from './upload';

export default { articles, auth, keys, notes, rateLimit, redis, sections, upload, unfurl };
