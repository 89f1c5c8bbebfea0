import articles from './articles';
import auth from './auth';
import cliLogin from './cli-login';
import keys from './keys';
import notes from './notes';
import outlines from './outlines';
import rateLimit from './rate-limit';
import redis from './redis';
import sections from './sections';
import unfurl from './unfurl';
import upload from './upload';

export default { articles, auth, cliLogin, keys, notes, outlines, rateLimit, redis, sections, unfurl, upload };
