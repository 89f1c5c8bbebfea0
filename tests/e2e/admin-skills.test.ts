/**
 * The trigger panel's skills (CONTRACT 21, issue 24) in Chromium: each workflow's skill name,
 * description and input schema; the "try it" form made from the schema (a matching input
 * starts an execution, a mismatch shows the server's 400); the description and schema edited
 * in the workflow form with validation; the organization's ready-to-copy MCP configuration.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminSuite } from '../helpers/admin-e2e';
import { ARTIFACTS_DIR } from '../helpers/browser';
import { bearer, registerUser, type TestUser } from '../helpers/strapi';
import { createInstance, createOrganization, createWorkflow, type Setup } from '../helpers/triggers';

const suite = adminSuite();
let lin: TestUser;
let setup: Setup;
let workflowId: string;

const SCHEMA = {
  type: 'object',
  properties: {
    email: { type: 'string', description: 'Who gets the invoice.' },
    amount: { type: 'integer', minimum: 1 },
    rush: { type: 'boolean' },
    lines: { type: 'array', items: { type: 'string' } },
  },
  required: ['email', 'amount'],
};

beforeAll(async () => {
  lin = await registerUser(suite.app, 'lin');
  const organizationId = await createOrganization(suite.app, lin, 'Skillful');
  setup = await createInstance(suite.app, lin, organizationId, 'billing');
  workflowId = (await createWorkflow(suite.app, lin, setup.instanceId, { name: 'Send invoice', description: 'Sends an invoice by email.', inputSchema: SCHEMA })).id;
});

const SCREENS = path.join(ARTIFACTS_DIR, 'admin-skills-screens');
async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, `${name}.png`), fullPage: true });
}

async function executions(): Promise<any[]> {
  const res = await suite.app.http.get(`/api/process-instances/${setup.instanceId}/executions?workflowId=${workflowId}`).set(bearer(lin.jwt));
  return res.body.data.executions;
}

it('shows the skill card, runs the try-it form, and gives the MCP configuration', () =>
  suite.withPage(async (page) => {
    await page.goto(suite.url(`/admin/plugins/triggers/instances/${setup.instanceId}`));
    const card = page.locator(`article[data-workflow="${workflowId}"]`);
    await card.waitFor();
    expect(await card.locator('[data-skill-name]').innerText()).toBe('send_invoice');
    expect(await card.locator('[data-skill-description]').innerText()).toBe('Sends an invoice by email.');
    await card.getByText('Input schema').click();
    expect(JSON.parse(await card.locator('[data-skill-schema]').innerText())).toEqual(SCHEMA);

    // One field per top-level property, by type.
    const tryIt = card.getByRole('form', { name: 'Try it' });
    expect(await tryIt.getByRole('textbox', { name: 'email' }).getAttribute('type')).toBe('text');
    expect(await tryIt.getByRole('spinbutton', { name: 'amount' }).count()).toBe(1);
    expect(await tryIt.getByRole('switch', { name: 'rush' }).count()).toBe(1);
    expect(await tryIt.getByRole('textbox', { name: 'lines' }).count()).toBe(1);

    // A mismatch: the server's 400 names the path, and nothing runs.
    await tryIt.getByRole('textbox', { name: 'email' }).fill('ada@example.com');
    await tryIt.getByRole('button', { name: 'Run' }).click();
    const result = tryIt.locator('[data-try-result]');
    await result.filter({ hasText: 'payload.amount is required' }).waitFor();
    expect(await result.getAttribute('role')).toBe('alert');
    expect(await executions()).toEqual([]);

    // A matching input starts an execution with exactly that input.
    await tryIt.getByRole('spinbutton', { name: 'amount' }).fill('3');
    await tryIt.getByRole('switch', { name: 'rush' }).click();
    await tryIt.getByRole('textbox', { name: 'lines' }).fill('["one", "two"]');
    await tryIt.getByRole('button', { name: 'Run' }).click();
    await result.filter({ hasText: 'Started execution' }).waitFor();
    const [execution] = await executions();
    expect((await result.innerText()).trim()).toBe(`Started execution ${execution.executionId}`);
    const detail = await suite.app.http.get(`/status/${setup.instanceId}/${execution.executionId}?wait=10`).set('X-API-Key', setup.apiKey);
    expect(detail.body.data.output).toEqual({ email: 'ada@example.com', amount: 3, rush: true, lines: ['one', 'two'] });

    // The organization's MCP configuration, ready to copy: the URL and the header, the key a placeholder.
    const config = page.locator('[data-mcp-config]');
    await config.scrollIntoViewIfNeeded();
    const parsed = JSON.parse(await config.locator('pre').innerText());
    const server = parsed.mcpServers['quire-skillful'];
    expect(server).toEqual({ type: 'http', url: expect.stringMatching(/\/api\/mcp$/), headers: { 'X-Process-Manager-Key': 'cko_YOUR_ORGANIZATION_KEY' } });
    expect(server.url).toBe(`${suite.app.strapi.config.get('server.url')}/api/mcp`);
    expect(await config.getByRole('button', { name: 'Copy' }).count()).toBe(1);
    await screenshot(page, 'skill-card-laptop');
  }));

it('edits the description and the input schema with validation', () =>
  suite.withPage(async (page) => {
    const plain = await createWorkflow(suite.app, lin, setup.instanceId, { name: 'Plain echo' });
    await page.goto(suite.url(`/admin/plugins/triggers/instances/${setup.instanceId}`));
    const card = page.locator(`article[data-workflow="${plain.id}"]`);
    await card.waitFor();
    expect(await card.locator('[data-skill-name]').innerText()).toBe('plain_echo');
    // Without a schema, the try-it form takes the input as JSON.
    expect(await card.getByRole('form', { name: 'Try it' }).getByLabel('Input').count()).toBe(1);

    await card.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('dialog');
    const fieldError = form.locator('[data-strapi-field-error]');
    await form.getByLabel('Input schema').fill('{"type": ');
    await form.getByRole('button', { name: 'Save' }).click();
    await fieldError.filter({ hasText: 'Not valid JSON' }).waitFor();
    await form.getByLabel('Input schema').fill('{"type": "strng"}');
    await form.getByRole('button', { name: 'Save' }).click();
    await fieldError.filter({ hasText: 'inputSchema is not a valid JSON Schema' }).waitFor();

    await form.getByLabel('Description').fill('Echoes a greeting.');
    await form.getByLabel('Input schema').fill('{"type": "object", "properties": {"greeting": {"type": "string"}}, "required": ["greeting"]}');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await card.locator('[data-skill-description]').filter({ hasText: 'Echoes a greeting.' }).waitFor();
    expect(await card.getByRole('form', { name: 'Try it' }).getByRole('textbox', { name: 'greeting' }).count()).toBe(1);
    const stored = await suite.app.http.get(`/api/process-instances/${setup.instanceId}/workflows/${plain.id}`).set(bearer(lin.jwt));
    expect(stored.body.data.workflow).toMatchObject({ description: 'Echoes a greeting.', inputSchema: { type: 'object', required: ['greeting'] } });
    await screenshot(page, 'skill-edited-laptop');
  }));
