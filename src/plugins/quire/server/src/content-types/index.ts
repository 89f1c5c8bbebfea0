import apiKey from './api-key/schema.json';
import changeSet from './change-set/schema.json';
import changeSetSection from './change-set-section/schema.json';
import article from './article/schema.json';
import cliLogin from './cli-login/schema.json';
import note from './note/schema.json';
import oauthClient from './oauth-client/schema.json';
import oauthGrant from './oauth-grant/schema.json';
import oauthToken from './oauth-token/schema.json';
import liveState from './live-state/schema.json';
import liveUpdate from './live-update/schema.json';
import premiseRevision from './premise-revision/schema.json';
import publication from './publication/schema.json';
import section from './section/schema.json';
import webSession from './web-session/schema.json';
import sectionRevision from './section-revision/schema.json';
import suggestion from './suggestion/schema.json';
import trashedSection from './trashed-section/schema.json';
import thread from './thread/schema.json';
import threadComment from './thread-comment/schema.json';

export default {
  'api-key': { schema: apiKey },
  article: { schema: article },
  section: { schema: section },
  note: { schema: note },
  'cli-login': { schema: cliLogin },
  publication: { schema: publication },
  'oauth-client': { schema: oauthClient },
  'oauth-grant': { schema: oauthGrant },
  'oauth-token': { schema: oauthToken },
  'web-session': { schema: webSession },
  'section-revision': { schema: sectionRevision },
  'trashed-section': { schema: trashedSection },
  suggestion: { schema: suggestion },
  'premise-revision': { schema: premiseRevision },
  'live-state': { schema: liveState },
  'live-update': { schema: liveUpdate },
  thread: { schema: thread },
  'thread-comment': { schema: threadComment },
  'change-set': { schema: changeSet },
  'change-set-section': { schema: changeSetSection },
};
