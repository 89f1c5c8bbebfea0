import apiKey from './api-key/schema.json';

export default {
  'api-key': { schema: apiKey },
};
