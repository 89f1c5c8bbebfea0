import articles from './articles';
import cliLogin from './cli-login';
import keys from './keys';
import notes from './notes';
import sections from './sections';

export default { articles, cliLogin, keys, notes, sections };
