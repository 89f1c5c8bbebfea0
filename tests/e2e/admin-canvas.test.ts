/**
 * The editors' canvas in Chromium (CONTRACT 18, issue 13 item 5; live since issue 22, CONTRACT
 * 19: no Save action, tests/e2e/live-canvas.test.ts covers the live document itself): an
 * article an agent wrote through the API, opened from the Quire list; a section edited in place
 * and stored without a Save (the agent then reads an html section with the text); sections reordered by dragging;
 * a note added to the Brief; a pasted link turned into a link card; a Media Library image with
 * an absolute URL; an agent's change arriving while the canvas is open; publishing; review (a
 * suggest key's suggestion, shown in the section's text as tracked changes (ins/del[data-change]),
 * accepted and another rejected with a reason, a section's revision
 * restored from its history, a deleted section restored from the trash after a section picked,
 * the restore and reject dialogs); an admin without Quire permissions kept out; an agent
 * changing a section while the editor types in it (merged: the editor is told who, and keeps
 * their text); a note an agent changed while the editor had it open (autosave stops: the editor
 * keeps their text, and reloads theirs or saves on purpose); the outline's add and delete, the
 * premise, a note edited and deleted. Screenshots of the canvas at laptop and phone widths (the
 * note conflict too) are kept in .tmp/e2e-artifacts/admin-canvas.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminBearer, adminToken } from '../helpers/admin';
import { adminSuite } from '../helpers/admin-e2e';
import { ARTIFACTS_DIR, PHONE } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/servers';
import { bearer, createKey, registerUser, type TestUser } from '../helpers/strapi';
import { eventually as eventuallyHolds } from '../helpers/wait';

let site: TestServer;
const siteEnv: Record<string, string> = {};
// The page a pasted link points to: a local site the unfurl route may fetch (exempted below).
beforeAll(async () => {
  site = await startServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(
      '<!doctype html><html><head><title>Looms</title><meta property="og:title" content="Jacquard looms">' +
        '<meta property="og:description" content="Punched cards that weave patterns."></head><body>Looms</body></html>',
    );
  });
  siteEnv.UNFURL_ALLOWED_PRIVATE_HOSTS = `127.0.0.1:${site.port}`;
});
afterAll(() => site?.close());

const suite = adminSuite({ env: siteEnv });
let ada: TestUser;
let agentKey: string;
let articleId: string;

const SHOTS = path.join(ARTIFACTS_DIR, 'admin-canvas');
/** A screenshot with animations finished (dialogs fade in); `fullPage: false` keeps an open select open (a resize closes it). */
const shoot = async (page: Page, name: string, { fullPage = true } = {}) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage, animations: 'disabled' });
};

const api = (method: 'get' | 'patch' | 'post' | 'delete', url: string) => suite.app.http[method](url).set(bearer(agentKey));
const anchorOf = async (title: string) => (await api('get', `/api/articles/${articleId}/outline`)).body.data.outline.find((s) => s.title === title).anchor as string;
const outlineTitles = async () => (await api('get', `/api/articles/${articleId}/outline`)).body.data.outline.map((s) => s.title);
/** Retries `read` until it returns `expected` (the canvas writes after the click that asked for it). */
async function eventually<T>(read: () => Promise<T>, expected: T) {
  await eventuallyHolds(async () => expect(await read()).toEqual(expected), { timeout: 10000, interval: 200 });
}

const sectionAt = (page: Page, title: string) => page.locator('section[data-anchor]', { has: page.getByRole('heading', { name: title }) });

beforeAll(async () => {
  ada = await registerUser(suite.app, 'ada');
  agentKey = await createKey(suite.app, ada, 'agent');
  const res = await api('post', '/api/articles').send({
    title: 'On the Analytical Engine',
    premise: 'What the engine could do beyond numbers.',
    markdown: '# Numbers\n\nThe engine computes Bernoulli numbers.\n\n# Music\n\nIt might compose elaborate pieces of music.\n\n# Looms\n\nIt weaves algebraic patterns.',
  });
  expect(res.status).toBe(201);
  articleId = res.body.data.article.id;
});

async function openCanvas(page: Page) {
  await page.goto(suite.url('/admin/plugins/quire'));
  await page.locator(`tr[data-article="${articleId}"]`).getByText('On the Analytical Engine').click();
  await page.waitForURL(suite.url(`/admin/plugins/quire/articles/${articleId}`));
  await page.locator('section[data-anchor]').first().waitFor();
  // The sections are editable once the live document is there.
  await page.locator('section[data-anchor] [contenteditable="true"]').first().waitFor();
}

it('opens the article an agent wrote: the outline beside it, sections with data-anchor and data-source, the Brief', () =>
  suite.withPage(async (page) => {
    await openCanvas(page);
    await page.getByRole('heading', { name: 'On the Analytical Engine', level: 1 }).waitFor();
    const outline = await api('get', `/api/articles/${articleId}/outline`);
    const anchors = outline.body.data.outline.map((s) => s.anchor);
    expect(await page.locator('section[data-anchor]').evaluateAll((els) => els.map((el) => [el.getAttribute('data-anchor'), el.getAttribute('data-source')]))).toEqual(
      anchors.map((a) => [a, 'markdown']),
    );
    expect(await page.getByTestId('outline').locator('[data-outline-title]').allInnerTexts()).toEqual(['Numbers', 'Music', 'Looms']);
    await page.getByTestId('brief').getByText('What the engine could do beyond numbers.').waitFor();
    await shoot(page, 'canvas-laptop');
  }));

it('edits a section in place, stored with no Save: the agent reads an html section with the text', () =>
  suite.withPage(async (page) => {
    await openCanvas(page);
    const music = sectionAt(page, 'Music');
    // The click puts the caret in the text: no editor to open.
    await music.getByText('It might compose').click();
    const editor = music.locator('[contenteditable="true"]');
    await editor.locator('p').first().click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Edited in the canvas.');
    await shoot(page, 'editor-laptop');
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    await music.and(page.locator('[data-source="html"]')).waitFor();
    expect(await music.locator('[data-source-badge]').innerText()).toMatch(/html/i);

    const anchor = await music.getAttribute('data-anchor');
    // The first store may have caught the typing midway (it stores at most 2 s after a
    // keystroke, also during a long burst): read until the last keystroke is stored.
    const full = 'It might compose elaborate pieces of music. Edited in the canvas.';
    await eventually(async () => String((await api('get', `/api/articles/${articleId}/sections/${anchor}`)).body.data.section.html).includes(full), true);
    const seen = await api('get', `/api/articles/${articleId}/sections/${anchor}`);
    expect(seen.body.data.section).toEqual(expect.objectContaining({ source: 'html', markdown: null, title: 'Music' }));
    expect(seen.body.data.section.html).toContain(full);
  }));

it('reorders sections by dragging them in the outline', () =>
  suite.withPage(async (page) => {
    await openCanvas(page);
    const items = page.getByTestId('outline').locator('li');
    await items.filter({ hasText: 'Looms' }).dragTo(items.filter({ hasText: 'Numbers' }));
    await page.waitForFunction(() => document.querySelector('section[data-anchor]')?.textContent?.includes('weaves'));
    await eventually(outlineTitles, ['Looms', 'Numbers', 'Music']);
    // And back, from the keyboard's buttons.
    await page.getByRole('button', { name: 'Move "Looms" down' }).click();
    await eventually(outlineTitles, ['Numbers', 'Looms', 'Music']);
  }));

it('adds a note to the Brief, shown with its kind and stored as written by a human', () =>
  suite.withPage(async (page) => {
    await openCanvas(page);
    const brief = page.getByTestId('brief');
    await brief.getByRole('button', { name: 'Add note' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'Decision' }).click();
    await dialog.getByLabel('Title').fill('Quote Menabrea');
    await dialog.getByLabel('Body').fill('Use the *translator\'s* notes.');
    // Saved as typed; Done closes the dialog (saving what is left first).
    expect(await dialog.getByRole('button', { name: 'Save note' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await brief.locator('li', { hasText: 'Quote Menabrea' }).locator('[data-kind="decision"]').waitFor();
    const notes = (await api('get', `/api/articles/${articleId}/brief`)).body.data.notes;
    expect(notes).toEqual([expect.objectContaining({ kind: 'decision', title: 'Quote Menabrea', body: 'Use the *translator\'s* notes.', createdBy: 'human' })]);
  }));

it('turns a pasted link into a link card, which the section keeps and the public page shows', () =>
  suite.withPage(async (page) => {
    await openCanvas(page);
    const looms = sectionAt(page, 'Looms');
    const editor = looms.locator('[contenteditable="true"]');
    await editor.locator('p').last().click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await editor.evaluate((element, url) => {
      const data = new DataTransfer();
      data.setData('text/plain', url);
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, `${site.origin}/looms`);
    await editor.locator('figure[data-type="link-card"]').getByText('Jacquard looms').waitFor();
    await looms.locator('figure[data-type="link-card"]').waitFor();
    await shoot(page, 'link-card');

    const anchor = await looms.getAttribute('data-anchor');
    const storedHtml = async () => (await api('get', `/api/articles/${articleId}/sections/${anchor}`)).body.data.section.html as string;
    await eventually(async () => (await storedHtml()).includes('data-type="link-card"'), true);
    const html = await storedHtml();
    expect(html).toContain(`<figure data-type="link-card" data-url="${site.origin}/looms" data-title="Jacquard looms" data-description="Punched cards that weave patterns."`);

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const open = page.getByRole('link', { name: 'Open the public page' });
    await open.waitFor();
    const publicUrl = (await open.getAttribute('href'))!;
    const publicPage = await suite.app.http.get(new URL(publicUrl).pathname);
    expect(publicPage.text).toContain('<figure data-type="link-card"');
    expect(publicPage.text).toContain('Jacquard looms');
    await page.getByRole('button', { name: 'Unpublish' }).click();
    await open.waitFor({ state: 'detached' });
    expect((await api('get', `/api/articles/${articleId}`)).body.data.article.status).toBe('draft');
  }));

it('inserts an image from the Media Library with its absolute URL', async () => {
  const token = await adminToken(suite.app, suite.superAdmin);
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  const uploaded = await suite.app.http.post('/upload').set(adminBearer(token)).attach('files', png, { filename: 'engine.png', contentType: 'image/png' });
  expect(uploaded.status).toBe(201);
  await suite.withPage(async (page) => {
    await openCanvas(page);
    const numbers = sectionAt(page, 'Numbers');
    await numbers.locator('[contenteditable="true"] p').first().click();
    await page.getByRole('button', { name: 'Image from the Media Library' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('engine.png').waitFor();
    await dialog.locator('article', { hasText: 'engine.png' }).getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Finish' }).click();
    await numbers.locator('[contenteditable="true"] img').waitFor();
    const anchor = await numbers.getAttribute('data-anchor');
    const storedHtml = async () => (await api('get', `/api/articles/${articleId}/sections/${anchor}`)).body.data.section.html as string;
    await eventually(async () => (await storedHtml()).includes('<img src='), true);
    const html = await storedHtml();
    expect(html).toMatch(new RegExp(`<img src="${suite.base.replace(/\./g, '\\.')}/uploads/engine_[^"]+\\.png"`));
  });
});

it('shows an agent\'s change while the canvas is open, without a reload', () =>
  suite.withPage(async (page) => {
    await openCanvas(page);
    const outline = (await api('get', `/api/articles/${articleId}/outline`)).body.data.outline;
    const numbers = outline.find((s) => s.title === 'Numbers').anchor;
    const changed = await api('patch', `/api/articles/${articleId}/sections/${numbers}`).send({ markdown: '# Numbers\n\nThe engine tabulates any function.' });
    expect(changed.status).toBe(200);
    await page.locator(`section[data-anchor="${numbers}"]`).getByText('The engine tabulates any function.').waitFor();
  }));

it('merges an agent who changed the section while the editor typed in it: the editor is told who, and keeps their text', () =>
  suite.withPage(async (page) => {
    await openCanvas(page);
    const music = sectionAt(page, 'Music');
    const anchor = (await music.getAttribute('data-anchor'))!;
    const editor = music.locator('[contenteditable="true"]');
    // The section as the earlier test left it, before the caret goes to its end.
    await editor.getByText('It might compose elaborate pieces of music. Edited in the canvas.').waitFor();
    // Clicked at the end of the paragraph's last line, then End as well (a key pressed right after
    // a click can be lost on a loaded machine): the caret must be at its end, not mid-word.
    const first = editor.locator('p').first();
    const box = (await first.boundingBox())!;
    await first.click({ position: { x: box.width - 2, y: box.height - 2 } });
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('The editor insists.');

    // The agent rewrites the first sentence of the section as it reads it now, conditionally
    // (If-Match), as agents sharing an article do: the canvas stores the person's typing within
    // 2 s, and a write on an older read would replace it (CONTRACT 10); on 412 it reads again.
    let agent;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const read = await api('get', `/api/articles/${articleId}/sections/${anchor}`);
      const current = read.body.data.section.html as string;
      expect(current).toContain('It might compose elaborate pieces of music.');
      agent = await api('patch', `/api/articles/${articleId}/sections/${anchor}`).set('If-Match', read.headers.etag).send({ html: current.replace('It might compose elaborate', 'It might compose intricate') });
      if (agent.status !== 412) break;
    }
    expect(agent.status).toBe(200);
    // The editor sees it at once, and who: the agent's key, as the section's newest revision names it.
    await editor.getByText('It might compose intricate pieces of music.').waitFor();
    await page.locator(`section[data-anchor="${anchor}"][data-changed-by="agent"]`).waitFor();
    await shoot(page, 'changed-by');
    const laptop = page.viewportSize()!;
    await page.setViewportSize(PHONE);
    await shoot(page, 'changed-by-phone', { fullPage: false });
    await page.setViewportSize(laptop);
    // Nothing was overwritten: the agent's version and the editor's text both stand.
    await page.keyboard.type(' Twice.');
    await editor.getByText('The editor insists. Twice.').waitFor();
    await eventually(async () => {
      const html = (await api('get', `/api/articles/${articleId}/sections/${anchor}`)).body.data.section.html as string;
      return html.includes('It might compose intricate') && html.includes('The editor insists. Twice.');
    }, true);
    const saved = (await api('get', `/api/articles/${articleId}/sections/${anchor}`)).body.data.section;
    expect(saved.source).toBe('html');
  }));

it('does not overwrite an agent who changed a note while the editor had it open: the editor sees theirs, keeps their text, and chooses', () =>
  suite.withPage(async (page) => {
    const made = await api('post', `/api/articles/${articleId}/notes`).send({ kind: 'source', title: 'Menabrea', body: 'The memoir of 1842.' });
    expect(made.status).toBe(201);
    const note = made.body.data.note.anchor;
    const stored = async () => (await api('get', `/api/articles/${articleId}/notes/${note}`)).body.data.note;

    await openCanvas(page);
    const brief = page.getByTestId('brief');
    await brief.getByRole('button', { name: 'Edit note "Menabrea"' }).click();
    const dialog = page.getByRole('alertdialog');
    // The agent writes while the editor types (before the autosave's pause is over): the autosave is refused.
    expect((await api('patch', `/api/articles/${articleId}/notes/${note}`).send({ body: 'The memoir, translated by Ada.' })).status).toBe(200);
    await dialog.getByLabel('Body').fill('The memoir, with Ada\'s notes.');
    await dialog.getByTestId('note-conflict').getByText('The memoir, translated by Ada.').waitFor();
    // Nothing was overwritten, and the editor's text is still in the form.
    expect((await stored()).body).toBe('The memoir, translated by Ada.');
    expect(await dialog.getByLabel('Body').inputValue()).toBe('The memoir, with Ada\'s notes.');
    await shoot(page, 'note-conflict');
    const laptop = page.viewportSize()!;
    await page.setViewportSize(PHONE);
    await shoot(page, 'note-conflict-phone', { fullPage: false });
    await page.setViewportSize(laptop);

    // Reloading takes theirs into the form; saving then writes on top of it.
    await dialog.getByRole('button', { name: 'Reload theirs' }).click();
    await dialog.getByTestId('note-conflict').waitFor({ state: 'detached' });
    expect(await dialog.getByLabel('Body').inputValue()).toBe('The memoir, translated by Ada.');
    expect((await api('patch', `/api/articles/${articleId}/notes/${note}`).send({ url: 'https://example.com/sketch' })).status).toBe(200);
    await dialog.getByLabel('Body').fill('The memoir, translated and annotated by Ada.');
    await dialog.getByTestId('note-conflict').getByText('https://example.com/sketch').waitFor();
    // Or save theirs over it, on purpose.
    await dialog.getByRole('button', { name: 'Save mine over it' }).click();
    await dialog.getByTestId('note-conflict').waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await brief.locator(`[data-note="${note}"]`).getByText('The memoir, translated and annotated by Ada.').waitFor();
    expect(await stored()).toEqual(expect.objectContaining({ body: 'The memoir, translated and annotated by Ada.', url: null }));

    // A note changed after the editor asked to delete it is kept.
    await brief.getByRole('button', { name: 'Delete note "Menabrea"' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Delete the note "Menabrea"?').waitFor();
    expect((await api('patch', `/api/articles/${articleId}/notes/${note}`).send({ title: 'Menabrea, Sketch' })).status).toBe(200);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('changed after you asked to delete it', { exact: false }).waitFor();
    await brief.locator(`[data-note="${note}"]`).getByText('Menabrea, Sketch', { exact: true }).waitFor();
    expect((await stored()).title).toBe('Menabrea, Sketch');
    // Asked again, it goes.
    await brief.getByRole('button', { name: 'Delete note "Menabrea, Sketch"' }).click();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await brief.locator(`[data-note="${note}"]`).waitFor({ state: 'detached' });
    expect((await api('get', `/api/articles/${articleId}/notes/${note}`)).status).toBe(404);
  }));

it('renders a note body as the Markdown its hint says it is: emphasis, lists and links, never raw HTML or script links', () =>
  suite.withPage(async (page) => {
    const body = 'The **memoir** of 1842, see [the sketch](https://example.com/sketch).\n\n- punched cards\n- the engine\n\n<img src=x onerror="window.__noteScript=1"> [bad](javascript:window.__noteScript=2)';
    const made = await api('post', `/api/articles/${articleId}/notes`).send({ kind: 'source', title: 'Rendered note', body });
    expect(made.status).toBe(201);
    const note = made.body.data.note.anchor;
    await openCanvas(page);
    const shown = page.getByTestId('brief').locator(`[data-note="${note}"] [data-note-body]`);
    await shown.waitFor();
    expect(await shown.locator('strong').innerText()).toBe('memoir');
    expect(await shown.locator('li').allInnerTexts()).toEqual(['punched cards', 'the engine']);
    const link = shown.getByRole('link', { name: 'the sketch' });
    expect(await link.getAttribute('href')).toBe('https://example.com/sketch');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await shown.innerText()).not.toContain('**');
    // Raw HTML stays text and a javascript: link goes nowhere.
    expect(await shown.locator('img').count()).toBe(0);
    expect(await shown.getByRole('link', { name: 'bad' }).getAttribute('href')).not.toMatch(/javascript/i);
    expect(await page.evaluate(() => (window as unknown as { __noteScript?: number }).__noteScript)).toBeUndefined();
    expect((await api('delete', `/api/articles/${articleId}/notes/${note}`)).status).toBe(200);
  }));

describe('review', () => {
  let suggestKey: string;
  beforeAll(async () => {
    suggestKey = await createKey(suite.app, ada, 'reviewer bot', 'suggest');
  });

  it('accepts a suggestion made by a suggest key: the section changes, decided by the editor', () =>
    suite.withPage(async (page) => {
      const numbers = await anchorOf('Numbers');
      const made = await suite.app.http
        .patch(`/api/articles/${articleId}/sections/${numbers}`)
        .set(bearer(suggestKey))
        .send({ markdown: '# Numbers\n\nThe engine tabulates polynomials by differences.' });
      expect(made.status).toBe(202);
      const { anchor } = made.body.data.suggestion;

      await openCanvas(page);
      // In the section it changes (tests/e2e/suggestions-in-place.test.ts covers it further).
      const card = page.locator(`section[data-anchor="${numbers}"] [data-suggestion="${anchor}"]`);
      await card.getByText('reviewer bot (agent)', { exact: false }).waitFor();
      // Its words show in the section's text as tracked changes (CONTRACT 23), not copied into the card.
      await card.and(page.locator('[data-inline="shown"]')).waitFor();
      const change = await card.getAttribute('data-change-set');
      const editor = page.locator(`section[data-anchor="${numbers}"] .ProseMirror`);
      await editor.locator(`ins[data-change="${change}"]`).waitFor();
      expect(await editor.locator(`del[data-change="${change}"]`).allInnerTexts()).toEqual(['any function']);
      expect(await editor.locator(`ins[data-change="${change}"]`).allInnerTexts()).toEqual(['polynomials by differences']);
      expect(await card.getByTestId('suggestion-text').count()).toBe(0);
      await card.getByRole('button', { name: 'Accept suggestion' }).click();
      await card.waitFor({ state: 'detached' });
      // The canvas shows the accepted text without a reload, its marks gone.
      await editor.getByText('The engine tabulates polynomials by differences.').waitFor();
      await editor.locator('ins, del').first().waitFor({ state: 'detached' });

      const section = (await api('get', `/api/articles/${articleId}/sections/${numbers}`)).body.data.section;
      expect(section.markdown).toBe('# Numbers\n\nThe engine tabulates polynomials by differences.');
      const suggestion = (await api('get', `/api/articles/${articleId}/suggestions/${anchor}`)).body.data.suggestion;
      expect(suggestion).toEqual(expect.objectContaining({ status: 'accepted', decidedBy: { kind: 'editor', name: 'Chief' } }));
    }));

  it('shows a section\'s revisions side by side and restores one', () =>
    suite.withPage(async (page) => {
      const music = await anchorOf('Music');
      expect((await api('patch', `/api/articles/${articleId}/sections/${music}`).send({ markdown: '# Music\n\nA version to come back to.' })).status).toBe(200);
      expect((await api('patch', `/api/articles/${articleId}/sections/${music}`).send({ markdown: '# Music\n\nA version to leave.' })).status).toBe(200);
      const revisions = (await api('get', `/api/articles/${articleId}/sections/${music}/revisions`)).body.data.revisions;
      const wanted = revisions[1].rev;

      await openCanvas(page);
      await page.getByRole('button', { name: 'History of "Music"' }).click();
      const dialog = page.getByTestId('revisions-dialog');
      const rows = dialog.getByTestId('revisions').locator('li');
      await rows.first().getByText('current').waitFor();
      expect(await rows.count()).toBe(revisions.length);
      await dialog.locator(`li[data-rev="${revisions[0].rev}"]`).getByText('agent (agent)', { exact: false }).waitFor();
      await dialog.locator(`li[data-rev="${wanted}"]`).getByRole('button', { name: `Compare revision ${wanted} with the current one` }).click();
      const sides = dialog.getByTestId('side-by-side');
      await sides.locator(`[data-version="${wanted}"]`).getByText('A version to come back to.').waitFor();
      await sides.locator('[data-version="current"]').getByText('A version to leave.').waitFor();
      await shoot(page, 'revisions-laptop');
      await dialog.getByRole('button', { name: `Restore revision ${wanted}` }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.locator(`section[data-anchor="${music}"]`).getByText('A version to come back to.').waitFor();

      const after = (await api('get', `/api/articles/${articleId}/sections/${music}/revisions`)).body.data.revisions;
      expect(after[0]).toEqual(expect.objectContaining({ rev: revisions[0].rev + 1, by: { kind: 'editor', name: 'Chief' } }));
      expect((await api('get', `/api/articles/${articleId}/sections/${music}`)).body.data.section.markdown).toBe('# Music\n\nA version to come back to.');
    }));

  it('rejects a suggestion with a reason, kept with it', () =>
    suite.withPage(async (page) => {
      const music = await anchorOf('Music');
      const made = await suite.app.http
        .patch(`/api/articles/${articleId}/sections/${music}`)
        .set(bearer(suggestKey))
        .send({ markdown: '# Music\n\nIt plays only waltzes.' });
      expect(made.status).toBe(202);
      const { anchor } = made.body.data.suggestion;

      await openCanvas(page);
      const card = page.locator(`section[data-anchor="${music}"] [data-suggestion="${anchor}"]`);
      // Shown in the section's text (CONTRACT 23): the whole sentence rewritten, the full stop kept.
      await card.and(page.locator('[data-inline="shown"]')).waitFor();
      const change = await card.getAttribute('data-change-set');
      const editor = page.locator(`section[data-anchor="${music}"] .ProseMirror`);
      await editor.locator(`ins[data-change="${change}"]`).waitFor();
      expect(await editor.locator(`del[data-change="${change}"]`).allInnerTexts()).toEqual(['A version to come back to']);
      expect(await editor.locator(`ins[data-change="${change}"]`).allInnerTexts()).toEqual(['It plays only waltzes']);
      await card.getByRole('button', { name: 'Reject suggestion' }).click();
      const dialog = page.getByTestId('reject-dialog');
      await dialog.getByRole('heading', { name: 'Reject this suggestion?' }).waitFor();
      // Cancelling decides nothing.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect((await api('get', `/api/articles/${articleId}/suggestions/${anchor}`)).body.data.suggestion.status).toBe('pending');
      expect(await editor.locator(`ins[data-change="${change}"]`).count()).toBe(1);

      await card.getByRole('button', { name: 'Reject suggestion' }).click();
      await dialog.getByLabel('Reason').fill('The engine is not limited to waltzes.');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await dialog.waitFor({ state: 'detached' });
      await card.waitFor({ state: 'detached' });
      // Its marks go; the text stays as it was.
      await editor.locator('ins, del').first().waitFor({ state: 'detached' });
      expect(await editor.innerText()).toContain('A version to come back to.');

      const suggestion = (await api('get', `/api/articles/${articleId}/suggestions/${anchor}`)).body.data.suggestion;
      // The reason goes back to the agent with the suggestion (CONTRACT 20).
      expect(suggestion).toEqual(expect.objectContaining({ status: 'rejected', reason: 'The engine is not limited to waltzes.', decidedBy: { kind: 'editor', name: 'Chief' } }));
      expect((await api('get', `/api/articles/${articleId}/sections/${music}`)).body.data.section.markdown).not.toContain('waltzes');
    }));

  it('restores a deleted section from the trash where the editor picks', () =>
    suite.withPage(async (page) => {
      const looms = await anchorOf('Looms');
      expect((await api('delete', `/api/articles/${articleId}/sections/${looms}`)).status).toBe(200);
      expect(await outlineTitles()).toEqual(['Numbers', 'Music']);
      const scratch = (await api('post', `/api/articles/${articleId}/sections`).send({ markdown: '## Scratch\n\nTo be deleted.' })).body.data.added[0].anchor;
      await openCanvas(page);
      expect(await page.locator(`section[data-anchor="${looms}"]`).count()).toBe(0);
      const trash = page.getByTestId('trash');
      await trash.getByText('agent (agent)', { exact: false }).waitFor();
      await trash.getByRole('button', { name: 'Restore "Looms"' }).click();
      const dialog = page.getByTestId('restore-dialog');
      const place = dialog.getByRole('combobox', { name: 'Put it back' });
      await place.getByText('At the end').waitFor();
      // The section picked goes while the dialog is open: nothing is restored, the dialog stays, back on the end.
      await place.click();
      await page.getByRole('option', { name: 'After "Scratch"' }).click();
      await place.getByText('After "Scratch"').waitFor();
      expect((await api('delete', `/api/articles/${articleId}/sections/${scratch}`)).status).toBe(200);
      await dialog.getByRole('button', { name: 'Restore' }).click();
      await place.getByText('At the end').waitFor();
      expect(await dialog.isVisible()).toBe(true);
      expect(await outlineTitles()).toEqual(['Numbers', 'Music']);

      await place.click();
      await page.getByRole('option', { name: 'After "Numbers"' }).click();
      await place.getByText('After "Numbers"').waitFor();
      await dialog.getByRole('button', { name: 'Restore' }).click();
      await dialog.waitFor({ state: 'detached' });
      await trash.locator(`[data-trashed="${looms}"]`).waitFor({ state: 'detached' });
      // The canvas shows it in its new place without a reload.
      await page.locator(`section[data-anchor="${looms}"]`).waitFor();
      const shown = await page.locator('section[data-anchor]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-anchor')));
      expect(shown.indexOf(looms)).toBe(1);

      expect(await outlineTitles()).toEqual(['Numbers', 'Looms', 'Music']);
      expect((await api('get', `/api/articles/${articleId}/trash`)).body.data.sections.map((s) => s.title)).toEqual(['Scratch']);

      // At the start: before the first section of the outline.
      await trash.getByRole('button', { name: 'Restore "Scratch"' }).click();
      await place.click();
      await page.getByRole('option', { name: 'At the start' }).click();
      await place.getByText('At the start').waitFor();
      // Watched for from before the click: the toast goes after a few seconds, which a loaded machine can spend waiting for the dialog to close.
      const toast = page.getByText('"Scratch" is back, at the start').waitFor();
      await dialog.getByRole('button', { name: 'Restore' }).click();
      await toast;
      await dialog.waitFor({ state: 'detached' });
      expect(await outlineTitles()).toEqual(['Scratch', 'Numbers', 'Looms', 'Music']);
      // Back in the trash for the tests that follow.
      expect((await api('delete', `/api/articles/${articleId}/sections/${scratch}`)).status).toBe(200);
    }));

  it('shows the review panels on a laptop and on a phone', async () => {
    const numbers = await anchorOf('Numbers');
    // "polynomials" is the text the accept above put there (without it the find matches nothing: 400).
    const made = await suite.app.http
      .post(`/api/articles/${articleId}/suggestions`)
      .set(bearer(suggestKey))
      .send({ ops: [{ op: 'replaceText', section: numbers, find: 'polynomials', replace: 'any polynomial' }], note: 'More general.' });
    expect(made.status).toBe(201);
    const added = await api('post', `/api/articles/${articleId}/sections`).send({ markdown: '## Appendix\n\nTables of logarithms.' });
    expect((await api('delete', `/api/articles/${articleId}/sections/${added.body.data.added[0].anchor}`)).status).toBe(200);
    for (const [name, viewport] of [
      ['review-laptop', { width: 1280, height: 800 }],
      ['review-phone', PHONE],
    ] as const) {
      await suite.withPage(
        async (page) => {
          await page.goto(suite.url(`/admin/plugins/quire/articles/${articleId}`));
          await page.getByTestId('suggestions').getByText('More general.').waitFor();
          await page.getByTestId('trash').getByText('Appendix').waitFor();
          // Nothing sticks out sideways.
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
          await shoot(page, name);
          await page.getByTestId('suggestions').scrollIntoViewIfNeeded();
          await shoot(page, `${name}-suggestions`);
          await page.getByTestId('trash').scrollIntoViewIfNeeded();
          await shoot(page, `${name}-trash`);
          await page.getByTestId('trash').getByRole('button', { name: 'Restore "Appendix"' }).click();
          await page.getByTestId('restore-dialog').getByRole('combobox', { name: 'Put it back' }).click();
          await page.getByRole('option', { name: 'After "Numbers"' }).waitFor();
          await shoot(page, `${name}-trash-restore`, { fullPage: false });
          await page.getByRole('option', { name: 'At the end' }).click();
          await page.getByRole('option', { name: 'After "Numbers"' }).waitFor({ state: 'detached' });
          await shoot(page, `${name}-trash-restore-dialog`);
          await page.getByTestId('restore-dialog').getByRole('button', { name: 'Cancel' }).click();
          await page.getByTestId('restore-dialog').waitFor({ state: 'detached' });
          await page.locator(`section[data-anchor="${numbers}"]`).getByRole('button', { name: 'Reject suggestion' }).first().click();
          await page.getByTestId('reject-dialog').getByLabel('Reason').fill('Too general for this article.');
          await shoot(page, `${name}-reject`);
          await page.getByTestId('reject-dialog').getByRole('button', { name: 'Cancel' }).click();
          await page.getByTestId('reject-dialog').waitFor({ state: 'detached' });
          await page.getByRole('button', { name: 'History of "Music"' }).click();
          await page.getByTestId('revisions-dialog').getByTestId('revisions').locator('li').first().waitFor();
          await page.getByTestId('revisions-dialog').getByRole('button', { name: /^Compare revision/ }).first().click();
          await page.getByTestId('side-by-side').getByText('Current').waitFor();
          await shoot(page, `${name}-revisions`);
        },
        { viewport },
      );
    }
  });
});

it('works on a phone', () =>
  suite.withPage(
    async (page) => {
      await page.goto(suite.url(`/admin/plugins/quire/articles/${articleId}`));
      await page.locator('section[data-anchor]').first().waitFor();
      await page.getByTestId('brief').waitFor();
      await shoot(page, 'canvas-phone');
    },
    { viewport: PHONE },
  ));

it('keeps an admin without Quire permissions out: no menu link, no canvas, 403 from its routes', async () => {
  const editor = await suite.createAdmin('strapi-editor', 'editor');
  await suite.withPage(
    async (page) => {
      await page.goto(suite.url('/admin'));
      await page.getByRole('navigation').getByRole('link', { name: 'Content Manager' }).waitFor();
      expect(await page.getByRole('navigation').getByRole('link', { name: 'Quire' }).count()).toBe(0);
      await page.goto(suite.url(`/admin/plugins/quire/articles/${articleId}`));
      await page.getByText(/don't have the permissions/i).waitFor();
      expect(await page.locator('section[data-anchor]').count()).toBe(0);
    },
    { as: editor },
  );
  const token = await adminToken(suite.app, editor);
  expect((await suite.app.http.get(`/quire/articles/${articleId}/sections`).set(adminBearer(token))).status).toBe(403);
});

it('adds and deletes a section from the outline, edits the premise, edits and deletes a note, and reloads theirs after a conflict', () =>
  suite.withPage(async (page) => {
    // An article of its own, so that nothing here depends on the tests above.
    const made = await api('post', '/api/articles').send({ title: 'Notes on the Engine', premise: 'A first premise.', markdown: '# Mill\n\nThe mill computes.\n\n# Store\n\nThe store remembers.' });
    expect(made.status).toBe(201);
    const id = made.body.data.article.id;
    const at = (rest: string) => `/api/articles/${id}${rest}`;
    const titles = async () => (await api('get', at('/outline'))).body.data.outline.map((s) => s.title);
    const note = (await api('post', at('/notes')).send({ kind: 'idea', title: 'Punched cards', body: 'From the looms.' })).body.data.note.anchor;

    await page.goto(suite.url(`/admin/plugins/quire/articles/${id}`));
    await page.locator('section[data-anchor] [contenteditable="true"]').first().waitFor();
    const outline = page.getByTestId('outline');

    // Add a section: it comes at the end, editable in place.
    await outline.getByRole('button', { name: 'Add section' }).click();
    const adding = page.getByRole('alertdialog');
    await adding.getByText('Add a section at the end').waitFor();
    await adding.getByLabel('Heading').fill('Printer');
    await adding.getByRole('button', { name: 'Add', exact: true }).click();
    await adding.waitFor({ state: 'detached' });
    await sectionAt(page, 'Printer').waitFor();
    await eventually(titles, ['Mill', 'Store', 'Printer']);
    await sectionAt(page, 'Printer').locator('[contenteditable="true"]').waitFor();

    // Delete it, behind a confirmation.
    await outline.getByRole('button', { name: 'Delete "Printer"' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Delete the section "Printer" and its text?').waitFor();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await sectionAt(page, 'Printer').waitFor({ state: 'detached' });
    await eventually(titles, ['Mill', 'Store']);

    // The premise: stored as typed, no button.
    const brief = page.getByTestId('brief');
    await brief.getByLabel('Premise').fill('What the engine is made of.');
    expect(await brief.getByRole('button', { name: 'Save premise' }).count()).toBe(0);
    await eventually(async () => (await api('get', at('/brief'))).body.data.premise, 'What the engine is made of.');

    // A note: edited, then deleted.
    await brief.getByRole('button', { name: 'Edit note "Punched cards"' }).click();
    const editingNote = page.getByRole('alertdialog');
    await editingNote.getByLabel('Title').fill('Punched cards, from Jacquard');
    await editingNote.getByRole('button', { name: 'Done' }).click();
    await editingNote.waitFor({ state: 'detached' });
    await brief.locator(`[data-note="${note}"]`).getByText('Punched cards, from Jacquard', { exact: true }).waitFor();
    expect((await api('get', at(`/notes/${note}`))).body.data.note).toEqual(expect.objectContaining({ title: 'Punched cards, from Jacquard', body: 'From the looms.', kind: 'idea' }));
    await brief.getByRole('button', { name: 'Delete note "Punched cards, from Jacquard"' }).click();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await brief.locator(`[data-note="${note}"]`).waitFor({ state: 'detached' });
    expect((await api('get', at('/brief'))).body.data.notes).toEqual([]);

    // An agent's rewrite arrives in the section being edited: the editor continues from the agent's text, and what they type is stored on top of it.
    const store = sectionAt(page, 'Store');
    const anchor = (await store.getAttribute('data-anchor'))!;
    const editor = store.locator('[contenteditable="true"]');
    expect((await api('patch', at(`/sections/${anchor}`)).send({ markdown: '# Store\n\nThe store holds a thousand numbers.' })).status).toBe(200);
    await editor.getByText('The store holds a thousand numbers.').waitFor();
    expect(await editor.innerText()).not.toContain('The store remembers.');
    await editor.locator('p', { hasText: 'thousand' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' The editor was here.');
    await eventually(async () => (await api('get', at(`/sections/${anchor}`))).body.data.section.html.includes('The editor was here.'), true);
    const saved = (await api('get', at(`/sections/${anchor}`))).body.data.section;
    expect(saved.source).toBe('html');
    expect(saved.html).toContain('The store holds a thousand numbers. The editor was here.');
    expect(saved.html).not.toContain('The store remembers.');
  }));
