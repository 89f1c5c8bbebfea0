import apiKey from './api-key/schema.json';
import article from './article/schema.json';
import cliLogin from './cli-login/schema.json';
import note from './note/schema.json';
import publication from './publication/schema.json';
import section from './section/schema.json';

export default {
  'api-key': { schema: apiKey },
  article: { schema: article },
  section: { schema: section },
  note: { schema: note },
  'cli-login': { schema: cliLogin },
  publication: { schema: publication },
};
