/**
 * The live canvas at its edges (issue 31 point 6, CONTRACT 22): typing after a "deleted by"
 * notice stays in the page (the focus does not drop to the page); a live channel that cannot
 * connect (a proxy that drops WebSocket upgrades) is said within 10 s, naming the likely cause
 * and the operations docs, and the article takes no typing; a page that goes offline lists
 * nobody else as present; an agent that only created the article is in no section.
 */
import type { Page } from 'playwright-core';
import { adminSuite } from '../helpers/admin-e2e';
import { bearer, createKey, registerUser } from '../helpers/strapi';
import type { TestAdmin } from '../helpers/admin';

const suite = adminSuite();
let agentKey: string;
let bob: TestAdmin;

const api = (method: 'get' | 'patch' | 'post' | 'delete', url: string) => suite.app.http[method](url).set(bearer(agentKey));

async function newArticle(title: string, markdown: string) {
  const res = await api('post', '/api/articles').send({ title, markdown });
  expect(res.status).toBe(201);
  return { id: res.body.data.article.id as string, anchors: res.body.data.outline.map((entry) => entry.anchor) as string[] };
}
async function openCanvas(page: Page, id: string) {
  await page.goto(suite.url(`/admin/plugins/quire/articles/${id}`));
  await page.locator('[data-testid="canvas"][data-live="on"]').waitFor();
  await page.locator('section[data-anchor] .ProseMirror').first().waitFor();
}
const section = (page: Page, anchor: string) => page.locator(`section[data-anchor="${anchor}"]`);

beforeAll(async () => {
  agentKey = await createKey(suite.app, await registerUser(suite.app, 'ada'), 'agent');
  bob = await suite.createAdmin('strapi-super-admin', 'bob');
});

it('keeps the focus in a section deleted while typed in: what is typed after the notice stays in the page', () =>
  suite.withPage(async (page) => {
    const { id, anchors } = await newArticle('Typed on', '# Intro\n\nStays.\n\n# Doomed\n\nAbout to go.');
    const doomed = anchors[1];
    await openCanvas(page, id);
    const block = section(page, doomed).locator('.ProseMirror p', { hasText: 'About to go' });
    const box = (await block.boundingBox())!;
    await block.click({ position: { x: box.width - 2, y: box.height - 2 } });
    await page.keyboard.press('End');
    await page.keyboard.type(' Before.');
    expect((await api('delete', `/api/articles/${id}/sections/${doomed}`)).status).toBe(200);
    await page.getByTestId('deleted-notice').waitFor();
    // The person goes on typing: nothing clicked in between.
    await page.keyboard.type(' After the notice.');
    const text = page.locator('[data-deleted] [data-ghost-text]');
    await text.getByText('About to go. Before. After the notice.').waitFor();
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[data-deleted]')))).toBe(true);
    // It stays until dismissed.
    await page.locator('[data-deleted]').getByRole('button', { name: 'Dismiss' }).click();
    expect(await page.locator('[data-deleted]').count()).toBe(0);
  }));

it('says within 10 s that live editing cannot connect when WebSocket upgrades are dropped, and takes no typing', () =>
  suite.withPage(async (page) => {
    const { id, anchors } = await newArticle('Behind a proxy', '# Only\n\nStored text.');
    // As a proxy that does not pass upgrades: every live connection is closed at once.
    await page.routeWebSocket(/\/quire\/live/, (ws) => ws.close({ code: 1011, reason: 'no upgrade' }));
    await page.goto(suite.url(`/admin/plugins/quire/articles/${id}`));
    // The canvas says it UNREACHABLE_MS (8 s) after it opened the live channel; on a loaded
    // machine the page itself may take seconds more to load, so no stopwatch here.
    const status = page.locator('[data-live-status="unreachable"]');
    await status.waitFor({ timeout: 30_000 });
    const words = await status.innerText();
    expect(words).toContain('cannot connect');
    expect(words).toContain('WebSocket');
    expect(words).toContain('docs/operations.md');
    // The article shows as stored, and nothing in it takes typing.
    await section(page, anchors[0]).getByText('Stored text.').waitFor();
    expect(await section(page, anchors[0]).locator('[contenteditable="true"]').count()).toBe(0);
  }));

it('lists nobody else while offline, and the others again once back', () =>
  suite.withPage(async (chief) => {
    const { id } = await newArticle('Who is here', '# One\n\nText.');
    await suite.withPage(
      async (other) => {
        await openCanvas(chief, id);
        await openCanvas(other, id);
        await chief.locator('[data-presence*="Bob Tester"]').waitFor();
        await chief.context().setOffline(true);
        await chief.locator('[data-live-status="offline"]').waitFor();
        await chief.locator('[data-presence=""]').waitFor();
        expect(await chief.locator('[data-person="Bob Tester"]').count()).toBe(0);
        await chief.context().setOffline(false);
        await chief.locator('[data-presence*="Bob Tester"]').waitFor({ timeout: 60_000 });
      },
      { as: bob },
    );
  }));

it('shows an agent that only created the article as present, in no section', () =>
  suite.withPage(async (page) => {
    const { id, anchors } = await newArticle('Just made', '# First\n\nBy an agent.\n\n# Second\n\nToo.');
    await openCanvas(page, id);
    await page.locator('[data-presence*="agent"]').waitFor();
    expect(await section(page, anchors[0]).getAttribute('data-editing')).toBeNull();
  }));
