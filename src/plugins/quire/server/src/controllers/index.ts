import articles from './articles';
import keys from './keys';
import notes from './notes';
import sections from './sections';

export default { articles, keys, notes, sections };
