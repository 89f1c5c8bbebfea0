import { route } from '../../../../quire/server/src/routes/define';

/** A route of the users' management API (API key, JWT or session), like the article API's. */
const user = (method: string, path: string, handler: string) => route(method, path, handler);

/** A /api/process-instances route: a user credential or an organization key (X-Process-Manager-Key). */
const instance = (method: string, path: string, handler: string) => {
  const built = route(method, path, handler);
  return { ...built, config: { ...built.config, middlewares: ['plugin::triggers.authenticate'] } };
};

export default {
  'content-api': {
    type: 'content-api',
    routes: [
      user('POST', '/organizations', 'organizations.create'),
      user('GET', '/organizations', 'organizations.list'),
      user('POST', '/organizations/:orgId/keys', 'organizations.createKey'),
      user('GET', '/organizations/:orgId/keys', 'organizations.listKeys'),
      user('DELETE', '/organizations/:orgId/keys/:keyId', 'organizations.revokeKey'),
      instance('POST', '/process-instances', 'instances.create'),
      instance('GET', '/process-instances', 'instances.list'),
      instance('GET', '/process-instances/:pid', 'instances.get'),
      instance('POST', '/process-instances/:pid/regenerate-key', 'instances.regenerateKey'),
      instance('POST', '/process-instances/:pid/workflows', 'instances.createWorkflow'),
      instance('GET', '/process-instances/:pid/workflows', 'instances.listWorkflows'),
      instance('GET', '/process-instances/:pid/workflows/:wid', 'instances.getWorkflow'),
      instance('PATCH', '/process-instances/:pid/workflows/:wid', 'instances.updateWorkflow'),
      instance('DELETE', '/process-instances/:pid/workflows/:wid', 'instances.removeWorkflow'),
      instance('GET', '/process-instances/:pid/executions', 'instances.listExecutions'),
    ],
  },
};
