/**
 * The trigger panel of the admin panel in Chromium (CONTRACT 18, Triggers): organizations made
 * for a user, organization keys shown once, an instance's Public API Access (reveal, copy,
 * regenerate), workflows, executions; the plugins' names on the Plugins page; and what an admin
 * without our permissions sees (no menu link) and gets (403).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminBearer, adminToken } from '../helpers/admin';
import { adminSuite } from '../helpers/admin-e2e';
import { ARTIFACTS_DIR, PHONE } from '../helpers/browser';
import { registerUser, type TestUser } from '../helpers/strapi';
import { createInstance, createOrganization, createOrganizationKey } from '../helpers/triggers';

const suite = adminSuite();
let grace: TestUser;
let organizationId: string;

beforeAll(async () => {
  grace = await registerUser(suite.app, 'grace');
  organizationId = await createOrganization(suite.app, grace, 'Hopper Labs');
  await createInstance(suite.app, grace, organizationId, 'compiler');
  await createOrganizationKey(suite.app, grace, organizationId);
});

it('the Triggers menu link shows the organization created through the management API', () =>
  suite.withPage(async (page) => {
    await page.goto(suite.url('/admin'));
    await page.getByRole('navigation').getByRole('link', { name: 'Triggers' }).click();
    await page.waitForURL(suite.url('/admin/plugins/triggers'));
    const row = page.locator(`tr[data-organization="${organizationId}"]`);
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    expect(cells[0]).toBe('Hopper Labs');
    expect(cells[1]).toContain(grace.username);
    expect(cells[1]).toContain(grace.email);
    expect(cells.slice(2, 4)).toEqual(['1', '1']); // one instance, one key
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
  const made = {} as { organizationId: string; instanceId: string; workflowId: string; key: string };

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
    }));

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
