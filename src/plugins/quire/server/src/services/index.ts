import articles from './articles';
import auth from './auth';
import cliLogin from './cli-login';
import imports from './imports';
import keys from './keys';
import notes from './notes';
import outlines from './outlines';
import publications from './publications';
import rateLimit from './rate-limit';
import redis from './redis';
import sections from './sections';
import unfurl from './unfurl';
import upload from './upload';

export default { articles, auth, cliLogin, imports, keys, notes, outlines, publications, rateLimit, redis, sections, unfurl, upload };
