/**
 * The trigger panel of the admin panel in Chromium (CONTRACT 18, Triggers): organizations made
 * for a user, organization keys shown once, an instance's Public API Access (reveal, copy,
 * regenerate), workflows, executions; the plugins' names on the Plugins page; and what an admin
 * without our permissions sees (no menu link) and gets (403).
 */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminBearer, adminToken } from '../helpers/admin';
import { adminSuite } from '../helpers/admin-e2e';
import { ARTIFACTS_DIR, PHONE } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/servers';
import { registerUser, type TestUser } from '../helpers/strapi';
import { createInstance, createOrganization, createOrganizationKey, createWorkflow, signed } from '../helpers/triggers';

// A local endpoint for http workflows, allowed as a private host: /fail answers 500, /slow
// answers only when the test releases it (so an execution stays running as long as needed).
let hook: TestServer;
const held: { arrived: Array<() => void>; responses: http.ServerResponse[] } = { arrived: [], responses: [] };
const slowRequest = () => new Promise<void>((resolve) => held.arrived.push(resolve));
const releaseSlow = () => held.responses.splice(0).forEach((res) => res.end('done'));
const env: Record<string, string> = {};
beforeAll(async () => {
  hook = await startServer((req, res) => {
    req.resume();
    if (req.url === '/fail') {
      res.statusCode = 500;
      res.end('down');
    } else if (req.url === '/slow') {
      held.responses.push(res);
      held.arrived.splice(0).forEach((arrived) => arrived());
    } else res.end('ok');
  });
  env.HTTP_ACTION_ALLOWED_PRIVATE_HOSTS = `127.0.0.1:${hook.port}`;
});
afterAll(() => hook?.close());

const suite = adminSuite({ env }); // its beforeAll runs after the one above, with the port set
let grace: TestUser;
let organizationId: string;

beforeAll(async () => {
  grace = await registerUser(suite.app, 'grace');
  organizationId = await createOrganization(suite.app, grace, 'Hopper Labs');
  await createInstance(suite.app, grace, organizationId, 'compiler');
  await createOrganizationKey(suite.app, grace, organizationId);
});

it('the Triggers menu link shows the organization created through the management API, in plain words and without console warnings', () =>
  suite.withPage(async (page) => {
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
    });
    // Strapi 5.54's own ConfigurationProvider, around every admin page, warns once per load that
    // useRBAC takes an array: counted here, so that only what our pages add is checked below.
    const rbacWarnings = () => warnings.filter((text) => text.includes('useRBAC')).length;
    await page.goto(suite.url('/admin'));
    const link = page.getByRole('navigation').getByRole('link', { name: 'Triggers' });
    await link.waitFor();
    const strapisOwn = rbacWarnings();
    await link.click();
    await page.waitForURL(suite.url('/admin/plugins/triggers'));
    const row = page.locator(`tr[data-organization="${organizationId}"]`);
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    expect(cells[0]).toBe('Hopper Labs');
    expect(cells[1]).toContain(grace.username);
    expect(cells[1]).toContain(grace.email);
    expect(cells.slice(2, 4)).toEqual(['1', '1']); // one instance, one key
    // The subtitle counts organizations in words a person reads (not "1 organization of every user").
    await page.getByText('One organization, with its process instances and keys').waitFor();
    expect(await page.getByText(/of every user/).count()).toBe(0);
    // Our pages check permissions with useRBAC's array form (the object form warned on each of them).
    await row.click();
    await page.getByRole('heading', { name: 'Hopper Labs', level: 1 }).waitFor();
    expect(rbacWarnings()).toBe(strapisOwn);
  }));

it('the Plugins page names and describes both plugins', () =>
  suite.withPage(async (page) => {
    await page.goto(suite.url('/admin/settings/list-plugins'));
    const quire = page.getByRole('row', { name: /^Quire/ });
    await quire.waitFor();
    expect(await quire.innerText()).toContain('Long-form articles written by AI agents and edited by people');
    expect(await page.getByRole('row', { name: /^Triggers/ }).innerText()).toContain('Workflow triggers');
    expect(await page.getByText('global.plugins.').count()).toBe(0);
  }));

it('an Editor without our permissions sees neither menu link, is refused the pages, and gets 403 from our admin routes', async () => {
  const editor = await suite.createAdmin('strapi-editor', 'editor');
  await suite.withPage(
    async (page) => {
      await page.goto(suite.url('/admin'));
      const nav = page.getByRole('navigation');
      await nav.getByRole('link', { name: 'Content Manager' }).waitFor();
      expect(await nav.getByRole('link', { name: 'Quire' }).count()).toBe(0);
      expect(await nav.getByRole('link', { name: 'Triggers' }).count()).toBe(0);

      for (const path of ['/admin/plugins/quire', '/admin/plugins/triggers']) {
        await page.goto(suite.url(path));
        await page.getByText(/don't have the permissions/i).waitFor();
        expect(await page.locator('table').count()).toBe(0);
      }
    },
    { as: editor },
  );

  const token = await adminToken(suite.app, editor);
  for (const path of ['/quire/articles', '/quire/owners', '/triggers/organizations', `/triggers/organizations/${organizationId}`, '/triggers/actions', '/triggers/users']) {
    const res = await suite.app.http.get(path).set(adminBearer(token));
    expect(res.status).toBe(403);
  }
  expect((await suite.app.http.post('/triggers/organizations').set(adminBearer(token)).send({ name: 'x', ownerId: grace.id })).status).toBe(403);
});

// ---- the trigger panel, end to end: what an operator does, in order ----

const SCREENS = path.join(ARTIFACTS_DIR, 'admin-triggers-screens');
async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, `${name}.png`), fullPage: true });
}

describe('the trigger panel', () => {
  let ada: TestUser;
  const made = {} as { organizationId: string; instanceId: string; workflowId: string; key: string; organizationKey: string };

  beforeAll(async () => {
    ada = await registerUser(suite.app, 'ada');
  });

  it('creates an organization for a user, and an organization key shown once (then listed without its secret)', () =>
    suite.withPage(async (page) => {
      await page.goto(suite.url('/admin/plugins/triggers'));
      await page.getByRole('button', { name: 'Create organization' }).click();
      const form = page.getByRole('dialog');
      await form.getByLabel('Name').fill('Analytical Engines');
      const owner = form.getByRole('combobox', { name: 'Owner' });
      await owner.click();
      await owner.pressSequentially(ada.username); // typing opens the list (as a person does)
      await page.getByRole('option', { name: new RegExp(ada.email.replace(/[.]/g, '\\.')) }).click();
      await form.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(/\/admin\/plugins\/triggers\/organizations\/[^/]+$/);
      made.organizationId = page.url().split('/').pop()!;
      await page.getByRole('heading', { name: 'Analytical Engines', level: 1 }).waitFor();
      expect(await page.getByText(`Owned by ${ada.username} (${ada.email})`).count()).toBe(1);

      await page.getByLabel('Key name').fill('deploy');
      await page.getByRole('button', { name: 'Create key' }).click();
      const shown = page.locator('[data-secret-once]');
      await shown.waitFor();
      const secret = (await shown.innerText()).trim();
      expect(secret).toMatch(/^cko_/);
      made.organizationKey = secret;
      expect(await page.getByText('Shown this once only').count()).toBe(1);
      await screenshot(page, 'organization-key-once-laptop');
      await page.getByRole('button', { name: 'I have copied it' }).click();
      await page.locator('li[data-key]').filter({ hasText: 'deploy' }).waitFor();
      expect(await page.content()).not.toContain(secret);

      // The key is real: it manages this organization's instances through the API.
      const listed = await suite.app.http.get('/api/process-instances').set('X-Process-Manager-Key', secret);
      expect(listed.status).toBe(200);
      await page.reload();
      await page.locator('li[data-key]').filter({ hasText: 'deploy' }).waitFor();
      expect(await page.content()).not.toContain(secret);
    }));

  it('creates an instance; Public API Access reveals and copies its key, which triggers a workflow made in the panel, and the execution shows as success', () =>
    suite.withPage(async (page) => {
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.base });
      await page.goto(suite.url(`/admin/plugins/triggers/organizations/${made.organizationId}`));
      await page.getByRole('button', { name: 'Create instance' }).click();
      await page.getByRole('dialog').getByLabel('Name').fill('loom');
      await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(/\/admin\/plugins\/triggers\/instances\/[^/]+$/);
      made.instanceId = page.url().split('/').pop()!;

      const access = page.locator('section[data-section="api-access"]');
      await access.getByRole('heading', { name: 'Public API Access' }).waitFor();
      const masked = await access.locator('[data-instance-key="masked"]').innerText();
      expect(masked).toMatch(/^ck_•+.{4}$/);
      await access.getByRole('button', { name: 'Reveal' }).click();
      const revealed = access.locator('[data-instance-key="revealed"]');
      await revealed.waitFor();
      made.key = (await revealed.innerText()).trim();
      expect(made.key).toMatch(/^ck_/);
      expect(made.key.endsWith(masked.slice(-4))).toBe(true);
      await access.getByRole('button', { name: 'Copy key' }).click();
      await page.getByText('Copied to the clipboard').first().waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(made.key);

      // A workflow, made in the panel: the echo action.
      await page.getByRole('button', { name: 'Create workflow' }).click();
      const form = page.getByRole('dialog');
      await form.getByLabel('Name').fill('echo back');
      await form.getByRole('combobox', { name: 'Action' }).click();
      await page.getByRole('option', { name: 'echo', exact: true }).click();
      await form.getByText('Succeeds with its input as output').waitFor();
      await form.getByRole('button', { name: 'Save' }).click();
      const card = page.locator('article[data-workflow]').filter({ hasText: 'echo back' });
      await card.waitFor();
      made.workflowId = (await card.getAttribute('data-workflow'))!;
      const triggerUrl = await card.locator('[data-trigger-url]').innerText();
      expect(triggerUrl).toMatch(new RegExp(`/webhook/${made.instanceId}/${made.workflowId}$`));
      expect(await card.locator('[data-example="api-key"]').innerText()).toContain('X-API-Key: $INSTANCE_KEY');
      for (const [tab, text] of [
        ['X-Process-Manager-Key', 'X-Process-Manager-Key: $ORG_KEY'],
        ['?api_key=', '?api_key=$INSTANCE_KEY'],
        ['Signed (Node)', "from 'standardwebhooks'"],
      ]) {
        await card.getByRole('tab', { name: tab }).click();
        expect(await card.getByRole('tabpanel').innerText()).toContain(text);
      }
      await card.getByRole('tab', { name: '?api_key=' }).click();
      expect(await card.getByRole('tabpanel').innerText()).toContain('logs');
      await screenshot(page, 'instance-laptop');

      // Triggered from outside with the key read from the page: the table shows it succeed.
      const triggered = await suite.app.http.post(`/webhook/${made.instanceId}/${made.workflowId}`).set('X-API-Key', made.key).send({ payload: { from: 'test' } });
      expect(triggered.status).toBe(202);
      await page.locator('section[data-section="executions"]').getByRole('button', { name: 'Refresh' }).click();
      await page.locator(`tr[data-execution="${triggered.body.data.executionId}"][data-status="success"]`).waitFor();

      // Send test: the real trigger route, then the execution's drawer.
      await card.getByRole('button', { name: 'Send test' }).click();
      const drawer = page.locator('[data-execution-drawer]');
      await drawer.waitFor();
      await drawer.locator('[data-status="success"]').waitFor();
      expect(JSON.parse(await drawer.locator('[data-json="input"]').innerText())).toEqual({ hello: 'world' });
      expect(JSON.parse(await drawer.locator('[data-json="output"]').innerText())).toEqual({ hello: 'world' });
      // The table and the drawer write an execution's times the same way (they used two formats).
      const sent = (await drawer.getAttribute('data-execution-drawer'))!;
      const triggeredCell = (await page.locator(`tr[data-execution="${sent}"] td`).nth(2).innerText()).trim();
      expect(triggeredCell).toMatch(/\d/);
      expect(await drawer.innerText()).toContain(triggeredCell);
      // What started it: Send test calls the trigger route with the instance key.
      expect(await drawer.innerText()).toMatch(/Started with\s+Instance key \(X-API-Key\)/i);
      await screenshot(page, 'execution-drawer-laptop');

      // Replay: a new execution of the same workflow and input, shown in the drawer.
      const first = await drawer.getAttribute('data-execution-drawer');
      await drawer.getByRole('button', { name: 'Replay' }).click();
      const replayDrawer = page.locator('[data-execution-drawer]:not([data-execution-drawer="' + first + '"])');
      await replayDrawer.waitFor();
      await replayDrawer.locator('[data-status="success"]').waitFor();
      expect(await replayDrawer.innerText()).toContain(first!);
      expect(JSON.parse(await replayDrawer.locator('[data-json="output"]').innerText())).toEqual({ hello: 'world' });
      await replayDrawer.getByRole('button', { name: 'Close' }).click();

      // Filters: by status.
      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'failed' }).click();
      await page.getByText('No execution matches these filters').waitFor();
    }));

  it('shows an action\'s config error under the field, and a new callback secret once', () =>
    suite.withPage(async (page) => {
      await page.goto(suite.url(`/admin/plugins/triggers/instances/${made.instanceId}`));
      await page.getByRole('button', { name: 'Create workflow' }).click();
      const form = page.getByRole('dialog');
      await form.getByLabel('Name').fill('hook');
      await form.getByRole('combobox', { name: 'Action' }).click();
      await page.getByRole('option', { name: 'http', exact: true }).click();
      await form.getByLabel('Config').fill('{"url": 42}');
      await form.getByRole('button', { name: 'Save' }).click();
      const fieldError = form.locator('[data-strapi-field-error]');
      await fieldError.filter({ hasText: 'config.url must be a string' }).waitFor();
      await form.getByLabel('Config').fill('{"url": ');
      await form.getByRole('button', { name: 'Save' }).click();
      await fieldError.filter({ hasText: 'Not valid JSON' }).waitFor();

      // A valid config and a callback URL: the callback secret is shown once.
      await form.getByLabel('Config').fill('{"url": "https://example.com/hook"}');
      await form.getByLabel('Callback URL').fill('https://example.com/done');
      await form.getByRole('button', { name: 'Save' }).click();
      const shown = page.locator('[data-secret-once]');
      await shown.waitFor();
      const secret = (await shown.innerText()).trim();
      expect(secret).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'I have copied it' }).click();
      const card = page.locator('article[aria-label="hook"]');
      expect(await card.locator('[data-callback-url]').innerText()).toBe('https://example.com/done');
      expect(await page.content()).not.toContain(secret);
    }));

  it('regenerates the key behind a confirmation: the old key gets 401 at once, the new one works', () =>
    suite.withPage(async (page) => {
      await page.goto(suite.url(`/admin/plugins/triggers/instances/${made.instanceId}`));
      const access = page.locator('section[data-section="api-access"]');
      await access.getByRole('button', { name: 'Reveal' }).click();
      await access.locator('[data-instance-key="revealed"]').waitFor();
      await access.getByRole('button', { name: 'Regenerate' }).click();
      const confirm = page.getByRole('alertdialog');
      expect(await confirm.innerText()).toContain('stops working at once');
      await confirm.getByRole('button', { name: 'Regenerate' }).click();
      await page.waitForFunction((old) => {
        const shown = document.querySelector('[data-instance-key="revealed"]')?.textContent?.trim();
        return Boolean(shown && shown !== old);
      }, made.key);
      const fresh = (await access.locator('[data-instance-key="revealed"]').innerText()).trim();
      expect(fresh).toMatch(/^ck_/);

      const url = `/webhook/${made.instanceId}/${made.workflowId}`;
      expect((await suite.app.http.post(url).set('X-API-Key', made.key).send({ payload: {} })).status).toBe(401);
      expect((await suite.app.http.post(url).set('X-API-Key', fresh).send({ payload: {} })).status).toBe(202);
      made.key = fresh;
    }));

  const webhook = () => `/webhook/${made.instanceId}/${made.workflowId}`;

  it('revokes an organization key behind a confirmation: X-Process-Manager-Key with it gets 401 at once', () =>
    suite.withPage(async (page) => {
      expect((await suite.app.http.post(webhook()).set('X-Process-Manager-Key', made.organizationKey).send({ payload: {} })).status).toBe(202);
      await page.goto(suite.url(`/admin/plugins/triggers/organizations/${made.organizationId}`));
      const key = page.locator('li[data-key]').filter({ hasText: 'deploy' });
      await key.getByRole('button', { name: 'Revoke' }).click();
      const confirm = page.getByRole('alertdialog');
      expect(await confirm.innerText()).toContain('Anything using the key "deploy" fails from now on');
      await confirm.getByRole('button', { name: 'Revoke' }).click();
      await key.waitFor({ state: 'detached' });

      expect((await suite.app.http.post(webhook()).set('X-Process-Manager-Key', made.organizationKey).send({ payload: {} })).status).toBe(401);
      expect((await suite.app.http.get('/api/process-instances').set('X-Process-Manager-Key', made.organizationKey)).status).toBe(401);
      await page.reload();
      await page.getByRole('button', { name: 'Create key' }).waitFor();
      expect(await page.locator('li[data-key]').filter({ hasText: 'deploy' }).count()).toBe(0);
    }));

  it('edits a workflow and switches it off: its trigger URL answers 404 (a disabled workflow), and works again once on', () =>
    suite.withPage(async (page) => {
      await page.goto(suite.url(`/admin/plugins/triggers/instances/${made.instanceId}`));
      const card = page.locator(`article[data-workflow="${made.workflowId}"]`);
      const form = page.locator('form[aria-label="Edit workflow"]');
      const save = async (check: (enabled: boolean) => void, name: string) => {
        await card.getByRole('button', { name: 'Edit' }).click();
        await form.getByLabel('Name').fill(name);
        const enabled = form.getByRole('switch', { name: 'Enabled' });
        check((await enabled.getAttribute('aria-checked')) === 'true');
        await enabled.click();
        await form.getByRole('button', { name: 'Save' }).click();
        await form.waitFor({ state: 'detached' });
      };

      await save((enabled) => expect(enabled).toBe(true), 'echo (paused)');
      await card.getByRole('heading', { name: 'echo (paused)' }).waitFor();
      await card.getByText('Disabled', { exact: true }).waitFor();
      expect(await card.getByRole('button', { name: 'Send test' }).isDisabled()).toBe(true);
      const refused = await suite.app.http.post(webhook()).set('X-API-Key', made.key).send({ payload: {} });
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe('not-found');

      await page.reload(); // the saved state, not the form's
      await save((enabled) => expect(enabled).toBe(false), 'echo back');
      await card.getByText('Enabled', { exact: true }).waitFor();
      expect(await card.getByRole('button', { name: 'Send test' }).isEnabled()).toBe(true);
      expect((await suite.app.http.post(webhook()).set('X-API-Key', made.key).send({ payload: {} })).status).toBe(202);
    }));

  it('generates a signing secret shown once (whsec_), which signs requests until it is removed', () =>
    suite.withPage(async (page) => {
      await page.goto(suite.url(`/admin/plugins/triggers/instances/${made.instanceId}`));
      const card = page.locator(`article[data-workflow="${made.workflowId}"]`);
      await card.getByRole('button', { name: 'Edit' }).click();
      const secrets = page.locator('form[aria-label="Edit workflow"] [data-signing-secrets]');
      await secrets.getByText('None: only keys are accepted.').waitFor();
      await secrets.getByRole('button', { name: 'Generate a secret' }).click();
      const shown = page.locator('[data-secret-once]');
      await shown.waitFor();
      const secret = (await shown.innerText()).trim();
      expect(secret).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'I have copied it' }).click();
      await shown.waitFor({ state: 'detached' });
      const listed = secrets.locator('li[data-secret]');
      await listed.waitFor();
      expect(await listed.count()).toBe(1);
      await card.getByText('1 signing secret').waitFor();
      expect(await page.content()).not.toContain(secret);

      const body = JSON.stringify({ payload: { signed: true } });
      expect((await suite.app.http.post(webhook()).set(signed(secret, body)).send(body)).status).toBe(202);

      await listed.getByRole('button', { name: 'Remove' }).click();
      const confirm = page.getByRole('alertdialog');
      expect(await confirm.innerText()).toContain('Requests signed with it are refused from now on');
      await confirm.getByRole('button', { name: 'Remove' }).click();
      await listed.waitFor({ state: 'detached' });
      await secrets.getByText('None: only keys are accepted.').waitFor();
      expect(await card.getByText('1 signing secret').count()).toBe(0);
      expect((await suite.app.http.post(webhook()).set(signed(secret, body)).send(body)).status).toBe(401);
    }));

  it("a failed execution shows its error in the drawer; the executions filter by workflow", () =>
    suite.withPage(async (page) => {
      await page.goto(suite.url(`/admin/plugins/triggers/instances/${made.instanceId}`));
      await page.getByRole('button', { name: 'Create workflow' }).click();
      const form = page.getByRole('dialog');
      await form.getByLabel('Name').fill('always 500');
      await form.getByRole('combobox', { name: 'Action' }).click();
      await page.getByRole('option', { name: 'http', exact: true }).click();
      await form.getByLabel('Config').fill(JSON.stringify({ url: `${hook.origin}/fail`, maxAttempts: 1 }));
      await form.getByRole('button', { name: 'Save' }).click();
      const card = page.locator('article[aria-label="always 500"]');
      await card.waitFor();
      const failingId = (await card.getAttribute('data-workflow'))!;

      await card.getByRole('button', { name: 'Send test' }).click();
      const drawer = page.locator('[data-execution-drawer]');
      await drawer.locator('[data-status="failed"]').waitFor();
      const failedId = (await drawer.getAttribute('data-execution-drawer'))!;
      expect(JSON.parse(await drawer.locator('[data-json="error"]').innerText())).toEqual({ code: 'http-status', message: 'The endpoint answered 500.' });
      expect(await drawer.innerText()).toContain('1 / 1');
      await screenshot(page, 'execution-failed-laptop');
      await drawer.getByRole('button', { name: 'Close' }).click();
      await drawer.waitFor({ state: 'detached' });

      const executions = page.locator('section[data-section="executions"]');
      const rows = executions.locator('tbody tr');
      await executions.locator(`tr[data-execution="${failedId}"][data-status="failed"]`).waitFor();
      expect(await executions.locator(`tbody tr:not([data-execution="${failedId}"])`).count()).toBeGreaterThan(0); // the echo runs

      await page.getByRole('combobox', { name: 'Workflow' }).click();
      await page.getByRole('option', { name: 'always 500' }).click();
      await page.waitForURL(new RegExp(`workflowId=${failingId}`));
      await executions.locator(`tbody tr:not([data-execution="${failedId}"])`).first().waitFor({ state: 'detached' });
      expect(await rows.count()).toBe(1);
      expect(await rows.locator('td').nth(1).innerText()).toBe('always 500');

      // With a status too: none of this workflow's runs succeeded.
      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'success' }).click();
      await page.getByText('No execution matches these filters').waitFor();
      await page.reload(); // the filters live in the address
      await page.getByText('No execution matches these filters').waitFor();
    }));

  it('refreshes the executions by itself while one runs (no Refresh click), until it ends', async () => {
    const slow = await createWorkflow(suite.app, ada, made.instanceId, { name: 'slow', action: 'http', config: { url: `${hook.origin}/slow`, maxAttempts: 1, timeoutMs: 30_000 } });
    const arrived = slowRequest();
    const triggered = await suite.app.http.post(`/webhook/${made.instanceId}/${slow.id}`).set('X-API-Key', made.key).send({ payload: { wait: true } });
    expect(triggered.status).toBe(202);
    await arrived; // the action runs, held by the endpoint
    try {
      await suite.withPage(async (page) => {
        await page.goto(suite.url(`/admin/plugins/triggers/instances/${made.instanceId}`));
        const executions = page.locator('section[data-section="executions"]');
        const row = executions.locator(`tr[data-execution="${triggered.body.data.executionId}"]`);
        await row.and(page.locator('[data-status="running"]')).waitFor();
        expect(await executions.getAttribute('data-refreshing')).toBe('true');
        const reloads: string[] = [];
        page.on('request', (request) => request.url().includes('/executions') && reloads.push(request.url()));
        releaseSlow();
        await row.and(page.locator('[data-status="success"]')).waitFor();
        await page.locator('section[data-section="executions"][data-refreshing="false"]').waitFor();
        expect(reloads.length).toBeGreaterThan(0); // fetched again without a click
      });
    } finally {
      releaseSlow();
    }
  });

  it('fits a phone', () =>
    suite.withPage(
      async (page) => {
        await page.goto(suite.url(`/admin/plugins/triggers/instances/${made.instanceId}`));
        await page.getByRole('heading', { name: 'Public API Access' }).waitFor();
        await page.locator('section[data-section="executions"] li').first().waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
        await screenshot(page, 'instance-phone');
        await page.goto(suite.url(`/admin/plugins/triggers/organizations/${made.organizationId}`));
        await page.locator('li[data-instance]').first().waitFor();
        await screenshot(page, 'organization-phone');
      },
      { viewport: PHONE },
    ));
});
