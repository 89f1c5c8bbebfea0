import cliLogin from './cli-login';
import keys from './keys';

export default {
  'content-api': {
    type: 'content-api',
    routes: [...keys, ...cliLogin],
  },
};
