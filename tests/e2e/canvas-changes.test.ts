/**
 * Change sets in the canvas, in Chromium (CONTRACT 23, issue 34): an agent's change (API key
 * PATCH) arrives in the open canvas and is listed in the Changes panel; the Authors toggle
 * colours the text by who wrote it (`[data-author="<key name>"]`); "Undo this change" puts the
 * text back, live in the editor, and the change set shows as reverted.
 */
import type { Page } from 'playwright-core';
import { adminSuite } from '../helpers/admin-e2e';
import { bearer, createKey, registerUser } from '../helpers/strapi';

const suite = adminSuite();
let agentKey: string;

const api = (method: 'get' | 'patch' | 'post', url: string) => suite.app.http[method](url).set(bearer(agentKey));

async function openCanvas(page: Page, id: string) {
  await page.goto(suite.url(`/admin/plugins/quire/articles/${id}`));
  await page.locator('[data-testid="canvas"][data-live="on"]').waitFor();
  await page.locator('section[data-anchor] .ProseMirror').first().waitFor();
}

beforeAll(async () => {
  const ada = await registerUser(suite.app, 'ada');
  agentKey = await createKey(suite.app, ada, 'scribe bot');
});

it('undoes an agent\'s change from the Changes panel, live, and colours the text by author', () =>
  suite.withPage(async (page) => {
    const made = await api('post', '/api/articles').send({ title: 'Undo me', markdown: '# Looms\n\nThe loom weaves patterns.\n\n# Music\n\nIt might compose.' });
    expect(made.status).toBe(201);
    const id = made.body.data.article.id as string;
    const looms = made.body.data.outline.find((s) => s.title === 'Looms').anchor as string;
    await openCanvas(page, id);
    const editor = page.locator(`section[data-anchor="${looms}"] .ProseMirror`);

    const write = await api('patch', `/api/articles/${id}/sections/${looms}`).set('Quire-Reason', 'richer').send({ markdown: '# Looms\n\nThe loom weaves algebraic patterns.' });
    expect(write.status).toBe(200);
    const change = write.body.data.changeSet.anchor as string;
    await editor.filter({ hasText: 'algebraic' }).waitFor({ timeout: 15_000 });

    // The Changes panel lists it (who, why, the section) with its undo.
    const entry = page.locator(`[data-testid="changes"] [data-change-set="${change}"]`);
    await entry.waitFor({ timeout: 15_000 });
    expect(await entry.textContent()).toEqual(expect.stringContaining('scribe bot'));
    expect(await entry.textContent()).toEqual(expect.stringContaining('richer'));

    // Authors: the agent's words carry its name.
    await page.getByTestId('authors-toggle').click();
    const byAgent = page.locator(`[data-authors-of="${looms}"] [data-author="scribe bot"]`);
    await byAgent.first().waitFor({ timeout: 15_000 });
    expect(await byAgent.allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('algebraic')]));
    await page.getByTestId('authors-toggle').click();
    await page.getByTestId('authors-view').waitFor({ state: 'detached' });

    // Undo this change: the text is back, in the editor and for the agent.
    await entry.getByRole('button', { name: 'Undo this change' }).click();
    await page.locator(`[data-change-set="${change}"][data-status="reverted"]`).waitFor({ timeout: 15_000 });
    await page.waitForFunction(
      (anchor) => {
        const text = document.querySelector(`section[data-anchor="${anchor}"] .ProseMirror`)?.textContent ?? '';
        return text.includes('The loom weaves patterns.') && !text.includes('algebraic');
      },
      looms,
      { timeout: 15_000 },
    );
    expect((await api('get', `/api/articles/${id}/sections/${looms}`)).body.data.section.markdown).toBe('# Looms\n\nThe loom weaves patterns.');
  }));
