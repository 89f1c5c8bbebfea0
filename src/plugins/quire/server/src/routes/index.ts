import keys from './keys';
import unfurl from './unfurl';
import upload from './upload';

export default {
  'content-api': {
    type: 'content-api',
    routes: [...keys, ...upload, ...unfurl],
  },
};
