import articles from './articles';
import keys from './keys';
import unfurl from './unfurl';
import upload from './upload';
import notes from './notes';
import sections from './sections';

export default {
  'content-api': {
    type: 'content-api',
    routes: [...keys, ...articles, ...sections, ...notes, ...upload, ...unfurl],
  },
};
