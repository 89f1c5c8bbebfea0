import articles from './articles';
import cliLogin from './cli-login';
import keys from './keys';
import notes from './notes';
import publications from './publications';
import sections from './sections';
import unfurl from './unfurl';
import upload from './upload';

export default { articles, cliLogin, keys, notes, publications, sections, unfurl, upload };
