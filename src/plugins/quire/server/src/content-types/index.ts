import apiKey from './api-key/schema.json';
import cliLogin from './cli-login/schema.json';

export default {
  'api-key': { schema: apiKey },
  'cli-login': { schema: cliLogin },
};
