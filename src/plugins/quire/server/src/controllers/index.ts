import articles from './articles';
import keys from './keys';
import notes from './notes';
import sections from './sections';
import unfurl from './unfurl';
import upload from './upload';

export default { articles, keys, notes, sections, upload, unfurl };
