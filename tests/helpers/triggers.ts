/** Helpers for the workflow-trigger tests: set up an organization, an instance and workflows over HTTP, sign requests. */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { bearer, type TestApp, type TestUser } from './strapi';

export interface Setup {
  organizationId: string;
  instanceId: string;
  apiKey: string;
}

export async function createOrganization(app: TestApp, user: TestUser, name = 'Acme'): Promise<string> {
  const res = await app.http.post('/api/organizations').set(bearer(user.jwt)).send({ name });
  if (res.status !== 201) throw new Error(`organization: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.organization.id;
}

export async function createInstance(app: TestApp, user: TestUser, organizationId: string, name = 'instance'): Promise<Setup> {
  const res = await app.http.post('/api/process-instances').set(bearer(user.jwt)).send({ organizationId, name });
  if (res.status !== 201) throw new Error(`instance: ${res.status} ${JSON.stringify(res.body)}`);
  return { organizationId, instanceId: res.body.data.instance.id, apiKey: res.body.data.instance.apiKey };
}

export async function setup(app: TestApp, user: TestUser): Promise<Setup> {
  return createInstance(app, user, await createOrganization(app, user));
}

export async function createWorkflow(
  app: TestApp,
  user: TestUser,
  instanceId: string,
  body: Record<string, unknown> = {},
): Promise<{ id: string; triggerUrl: string }> {
  const res = await app.http
    .post(`/api/process-instances/${instanceId}/workflows`)
    .set(bearer(user.jwt))
    .send({ name: 'workflow', action: 'echo', ...body });
  if (res.status !== 201) throw new Error(`workflow: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.workflow;
}

export async function createOrganizationKey(app: TestApp, user: TestUser, organizationId: string): Promise<{ id: string; secret: string }> {
  const res = await app.http.post(`/api/organizations/${organizationId}/keys`).set(bearer(user.jwt)).send({ name: 'deploy' });
  if (res.status !== 201) throw new Error(`organization key: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.key.id, secret: res.body.data.secret };
}

export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** Standard Webhooks headers for `body`, signed by the reference library. */
export function signed(secret: string, body: string, options: { id?: string; timestamp?: number } = {}) {
  const id = options.id ?? `msg_${randomBytes(12).toString('hex')}`;
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const signature = new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature, 'content-type': 'application/json' };
}

/** Polls the status route until the execution is finished (no clock in the assertion). */
export async function finished(app: TestApp, instanceId: string, executionId: string, apiKey: string) {
  for (let round = 0; round < 40; round += 1) {
    const res = await app.http.get(`/status/${instanceId}/${executionId}?wait=5`).set('X-API-Key', apiKey);
    if (res.status !== 200) throw new Error(`status: ${res.status} ${JSON.stringify(res.body)}`);
    if (res.body.data.status === 'success' || res.body.data.status === 'failed') return res.body.data;
  }
  throw new Error(`execution ${executionId} did not finish`);
}
