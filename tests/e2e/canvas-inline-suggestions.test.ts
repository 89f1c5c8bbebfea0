/**
 * Suggestions inline as tracked changes, in Chromium (CONTRACT 23, issue 34 point 3): a `suggest`
 * key's change shows in the section's text in two open canvases (`del[data-change]` over the words
 * it removes, `ins[data-change]` with the words it adds, the change set's anchor on both) without
 * a reload, its reason on its card; accepted in one section from one canvas, its marks there go
 * in both canvases while the other section's stay (the rest pending); rejected from the other
 * canvas, every mark goes; rejected in one section (Reject here), its marks there go in both and the rest stays. Text typed into a suggestion's passage (not yet stored) takes it out of
 * the text, and its card says so. Screenshots (laptop and phone) in
 * .tmp/e2e-artifacts/canvas-inline-suggestions.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminSuite } from '../helpers/admin-e2e';
import type { TestAdmin } from '../helpers/admin';
import { ARTIFACTS_DIR, PHONE } from '../helpers/browser';
import { bearer, createKey, registerUser } from '../helpers/strapi';

const suite = adminSuite();
let agentKey: string;
let suggestKey: string;
let bob: TestAdmin;

const SHOTS = path.join(ARTIFACTS_DIR, 'canvas-inline-suggestions');
const shoot = async (page: Page, name: string, { fullPage = true } = {}) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage, animations: 'disabled' });
};

const api = (method: 'get' | 'post', url: string) => suite.app.http[method](url).set(bearer(agentKey));
const suggest = (url: string) => suite.app.http.post(url).set(bearer(suggestKey));

async function newArticle(title: string) {
  const res = await api('post', '/api/articles').send({
    title,
    markdown: '# Numbers\n\nThe engine computes Bernoulli numbers.\n\n# Music\n\nIt might compose elaborate pieces of music.',
  });
  expect(res.status).toBe(201);
  const outline = res.body.data.outline as Array<{ title: string; anchor: string }>;
  return { id: res.body.data.article.id as string, numbers: outline.find((s) => s.title === 'Numbers')!.anchor, music: outline.find((s) => s.title === 'Music')!.anchor };
}

async function openCanvas(page: Page, id: string) {
  await page.goto(suite.url(`/admin/plugins/quire/articles/${id}`));
  await page.locator('[data-testid="canvas"][data-live="on"]').waitFor();
  await page.locator('section[data-anchor] .ProseMirror').first().waitFor();
}
const editorOf = (page: Page, anchor: string) => page.locator(`section[data-anchor="${anchor}"] .ProseMirror`);
const marks = async (page: Page, anchor: string, change: string) => ({
  del: await editorOf(page, anchor).locator(`del[data-change="${change}"]`).allInnerTexts(),
  ins: await editorOf(page, anchor).locator(`ins[data-change="${change}"]`).allInnerTexts(),
});

beforeAll(async () => {
  const ada = await registerUser(suite.app, 'ada');
  agentKey = await createKey(suite.app, ada, 'agent');
  suggestKey = await createKey(suite.app, ada, 'reviewer bot', 'suggest');
  bob = await suite.createAdmin('strapi-super-admin', 'bob');
});

it('shows a suggestion in the text of two open canvases, accepted in one section from one and gone from both', () =>
  suite.withPage(async (chief) => {
    await suite.withPage(
      async (other) => {
        const { id, numbers, music } = await newArticle('Inline suggestions');
        await openCanvas(chief, id);
        await openCanvas(other, id);

        const made = await suggest(`/api/articles/${id}/suggestions`)
          .set('Quire-Reason', 'As Lovelace wrote in Note G')
          .send({
            ops: [
              { op: 'replaceText', section: numbers, find: 'computes', replace: 'tabulates' },
              { op: 'replaceText', section: music, find: 'elaborate pieces', replace: 'scientific pieces' },
            ],
          });
        expect(made.status).toBe(201);
        const change = made.body.data.changeSet.anchor as string;
        expect(made.body.data.changeSet.id).toBe(made.body.data.suggestion.id);
        const madeAt = Date.now();

        // Live in both canvases (the spec's 1 s; the wait allows for a loaded machine).
        for (const page of [chief, other]) {
          await editorOf(page, numbers).locator(`ins[data-change="${change}"]`).waitFor({ timeout: 5_000 });
          console.log(`suggestion inline ${Date.now() - madeAt} ms after the API answered`);
          expect(await marks(page, numbers, change)).toEqual({ del: ['computes'], ins: ['tabulates'] });
          await editorOf(page, music).locator(`del[data-change="${change}"]`).waitFor({ timeout: 5_000 });
          expect(await marks(page, music, change)).toEqual({ del: ['elaborate'], ins: ['scientific'] });
        }
        // The marks are decorations: the text itself is unchanged, for the editor and the API.
        expect(await editorOf(chief, numbers).evaluate((el) => el.querySelector('ins')?.closest('[contenteditable]')?.getAttribute('contenteditable'))).toBe('false');
        expect((await api('get', `/api/articles/${id}/sections/${numbers}`)).body.data.section.markdown).toBe('# Numbers\n\nThe engine computes Bernoulli numbers.');

        // The card: who and why, no copy of the text, accept here or all, reject.
        const card = chief.locator(`section[data-anchor="${numbers}"] li[data-change-set="${change}"]`);
        await card.and(chief.locator('[data-inline="shown"]')).waitFor();
        await card.getByText('reviewer bot (agent)', { exact: false }).waitFor();
        expect(await card.getByTestId('suggestion-reason').innerText()).toBe('Why: As Lovelace wrote in Note G');
        expect(await card.getByTestId('suggestion-text').count()).toBe(0);
        expect(await editorOf(chief, numbers).locator('del[data-change]').getAttribute('title')).toBe('reviewer bot (agent): As Lovelace wrote in Note G');
        await section(chief, numbers).screenshot({ path: path.join(SHOTS, 'numbers-inline-laptop.png'), animations: 'disabled' });
        await shoot(chief, 'inline-laptop');

        // Accepted in "Numbers" from one canvas: its marks go in both, the text is the suggested one; "Music" still waits.
        await card.getByRole('button', { name: 'Accept suggestion in this section' }).click();
        for (const page of [chief, other]) {
          await page.waitForFunction(
            (anchor) => {
              const editor = document.querySelector(`section[data-anchor="${anchor}"] .ProseMirror`);
              return !!editor && !editor.querySelector('ins, del') && (editor.textContent ?? '').includes('The engine tabulates Bernoulli numbers.');
            },
            numbers,
            { timeout: 5_000 },
          );
          expect(await marks(page, music, change)).toEqual({ del: ['elaborate'], ins: ['scientific'] });
        }
        const after = (await api('get', `/api/articles/${id}/suggestions/${change}`)).body.data.suggestion;
        expect(after.status).toBe('pending');
        expect(after.ops).toEqual([{ op: 'replaceText', section: music, find: 'elaborate pieces', replace: 'scientific pieces' }]);
        expect((await api('get', `/api/articles/${id}/sections/${numbers}`)).body.data.section.markdown).toBe('# Numbers\n\nThe engine tabulates Bernoulli numbers.');

        // The rest rejected from the other canvas: every mark goes, in both.
        await other.locator(`section[data-anchor="${music}"] li[data-change-set="${change}"]`).getByRole('button', { name: 'Reject suggestion' }).click();
        const dialog = other.getByTestId('reject-dialog');
        await dialog.getByLabel('Reason').fill('Elaborate is her word.');
        await dialog.getByRole('button', { name: 'Reject' }).click();
        for (const page of [chief, other]) {
          await page.waitForFunction(() => !document.querySelector('[data-testid="canvas"] [data-change]:is(ins, del)'), undefined, { timeout: 5_000 });
          expect(await editorOf(page, music).innerText()).toContain('It might compose elaborate pieces of music.');
        }
        expect((await api('get', `/api/articles/${id}/suggestions/${change}`)).body.data.suggestion).toEqual(expect.objectContaining({ status: 'rejected', reason: 'Elaborate is her word.' }));
      },
      { as: bob },
    );
  }));

it('rejects a suggestion in one section (Reject here) with a reason: its marks there go in both canvases, the rest stays', () =>
  suite.withPage(async (chief) => {
    await suite.withPage(
      async (other) => {
        const { id, numbers, music } = await newArticle('Reject here');
        await openCanvas(chief, id);
        await openCanvas(other, id);
        const made = await suggest(`/api/articles/${id}/suggestions`).send({
          ops: [
            { op: 'replaceText', section: numbers, find: 'computes', replace: 'tabulates' },
            { op: 'replaceText', section: music, find: 'elaborate pieces', replace: 'scientific pieces' },
          ],
        });
        expect(made.status).toBe(201);
        const change = made.body.data.changeSet.anchor as string;
        for (const page of [chief, other]) await editorOf(page, music).locator(`del[data-change="${change}"]`).waitFor({ timeout: 5_000 });
        const card = chief.locator(`section[data-anchor="${music}"] li[data-change-set="${change}"]`);
        expect(await card.getByRole('button', { name: 'Reject suggestion', exact: true }).innerText()).toBe('Reject all');
        await card.getByRole('button', { name: 'Reject only this section\'s part of the suggestion' }).click();
        const dialog = chief.getByTestId('reject-dialog');
        await dialog.getByRole('heading', { name: 'Reject this suggestion in this section?' }).waitFor();
        await dialog.getByLabel('Reason').fill('Elaborate is her word.');
        await shoot(chief, 'reject-here-laptop');
        await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
        for (const page of [chief, other]) {
          await page.waitForFunction((anchor) => !document.querySelector(`section[data-anchor="${anchor}"] .ProseMirror :is(ins, del)`), music, { timeout: 5_000 });
          expect(await marks(page, numbers, change)).toEqual({ del: ['computes'], ins: ['tabulates'] });
          expect(await editorOf(page, music).innerText()).toContain('It might compose elaborate pieces of music.');
        }
        const after = (await api('get', `/api/articles/${id}/suggestions/${change}`)).body.data.suggestion;
        expect(after.status).toBe('pending');
        expect(after.ops).toEqual([{ op: 'replaceText', section: numbers, find: 'computes', replace: 'tabulates' }]);
        const rejected = (await api('get', `/api/articles/${id}/changes?section=${music}`)).body.data.changes.find((c) => c.status === 'rejected');
        expect(rejected).toEqual(expect.objectContaining({ reason: 'Elaborate is her word.', by: { kind: 'agent', name: 'reviewer bot' } }));
      },
      { as: bob },
    );
  }));

it('takes a suggestion out of the text when its passage is typed over, and says so on its card', () =>
  suite.withPage(async (page) => {
    const { id, numbers } = await newArticle('Typed over');
    await openCanvas(page, id);
    const made = await suggest(`/api/articles/${id}/suggestions`).send({ ops: [{ op: 'replaceText', section: numbers, find: 'computes', replace: 'tabulates' }], note: 'A better verb.' });
    expect(made.status).toBe(201);
    const change = made.body.data.changeSet.anchor as string;
    const deleted = editorOf(page, numbers).locator(`del[data-change="${change}"]`);
    await deleted.waitFor({ timeout: 5_000 });
    // Into the deleted word itself: the passage no longer matches.
    await deleted.click();
    await page.keyboard.type('X');
    await deleted.waitFor({ state: 'detached', timeout: 5_000 });
    expect(await editorOf(page, numbers).locator('[data-change]').count()).toBe(0);
    // Until stored, the card says why it is not in the text; once stored, it is out of date (apply by hand).
    const card = page.locator(`section[data-anchor="${numbers}"] li[data-change-set="${change}"]`);
    await card.locator('[data-testid="suggestion-moved"], [data-testid="suggestion-text"]').first().waitFor({ timeout: 5_000 });
    await card.getByTestId('suggestion-text').waitFor();
  }));

it('shows a suggestion inline on a phone', () =>
  suite.withPage(
    async (page) => {
      const { id, numbers } = await newArticle('Inline on a phone');
      await openCanvas(page, id);
      const made = await suggest(`/api/articles/${id}/suggestions`)
        .set('Quire-Reason', 'Note G says so')
        .send({ ops: [{ op: 'replaceText', section: numbers, find: 'computes Bernoulli numbers', replace: 'computes the Bernoulli numbers, step by step' }] });
      expect(made.status).toBe(201);
      const change = made.body.data.changeSet.anchor as string;
      await editorOf(page, numbers).locator(`ins[data-change="${change}"]`).first().waitFor({ timeout: 5_000 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await page.locator(`section[data-anchor="${numbers}"]`).scrollIntoViewIfNeeded();
      await shoot(page, 'inline-phone', { fullPage: false });
    },
    { viewport: PHONE },
  ));

it('fits Accept here and Reject here on a phone', () =>
  suite.withPage(
    async (page) => {
      const { id, numbers, music } = await newArticle('Decide here on a phone');
      await openCanvas(page, id);
      const made = await suggest(`/api/articles/${id}/suggestions`).send({
        ops: [
          { op: 'replaceText', section: numbers, find: 'computes', replace: 'tabulates' },
          { op: 'replaceText', section: music, find: 'elaborate', replace: 'scientific' },
        ],
      });
      expect(made.status).toBe(201);
      const card = page.locator(`section[data-anchor="${numbers}"] li[data-change-set="${made.body.data.changeSet.anchor}"]`);
      await card.getByTestId('reject-in-section').waitFor({ timeout: 5_000 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await card.scrollIntoViewIfNeeded();
      await card.screenshot({ path: path.join(SHOTS, 'decide-here-phone.png'), animations: 'disabled' });
    },
    { viewport: PHONE },
  ));

const section = (page: Page, anchor: string) => page.locator(`section[data-anchor="${anchor}"]`);
