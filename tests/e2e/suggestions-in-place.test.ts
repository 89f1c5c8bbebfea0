/**
 * Suggestions in place, in Chromium (CONTRACT 20, issue 23 point 2): an agent's suggestion shows
 * in the section it changes (data-suggestions="<count>") as word-level insertions and deletions
 * in its text (ins, del with data-change, CONTRACT 23), arriving in an open canvas without a reload; the count beside the article equals
 * the suggestions listed; accepted from the section (the text changes, the marks go); rejected
 * from the section with a reason the agent reads back through the API; a person who starts
 * typing in a section a suggestion waits on is warned (no modal); the suggestion their typing
 * made stale is offered to apply by hand (its text beside the current one) and closed with a
 * reason. Screenshots of a suggestion in place (laptop and phone) in
 * .tmp/e2e-artifacts/suggestions-in-place.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminSuite } from '../helpers/admin-e2e';
import { ARTIFACTS_DIR, PHONE } from '../helpers/browser';
import { bearer, createKey, registerUser, type TestUser } from '../helpers/strapi';

const suite = adminSuite();
let ada: TestUser;
let agentKey: string;
let suggestKey: string;

const SHOTS = path.join(ARTIFACTS_DIR, 'suggestions-in-place');
const shoot = async (page: Page, name: string, { fullPage = true } = {}) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage, animations: 'disabled' });
};

const api = (method: 'get' | 'patch' | 'post' | 'delete', url: string) => suite.app.http[method](url).set(bearer(agentKey));
const suggest = (method: 'patch' | 'post', url: string) => suite.app.http[method](url).set(bearer(suggestKey));

async function newArticle(title: string) {
  const res = await api('post', '/api/articles').send({
    title,
    premise: 'What the engine could do beyond numbers.',
    markdown: '# Numbers\n\nThe engine computes Bernoulli numbers.\n\n# Music\n\nIt might compose elaborate pieces of music.\n\n# Looms\n\nIt weaves algebraic patterns.',
  });
  expect(res.status).toBe(201);
  return res.body.data.article.id as string;
}
const anchorOf = async (id: string, title: string) => (await api('get', `/api/articles/${id}/outline`)).body.data.outline.find((s) => s.title === title).anchor as string;
const suggestionOf = async (id: string, anchor: string) => (await api('get', `/api/articles/${id}/suggestions/${anchor}`)).body.data.suggestion;

async function openCanvas(page: Page, id: string) {
  await page.goto(suite.url(`/admin/plugins/quire/articles/${id}`));
  await page.locator('[data-testid="canvas"][data-live="on"]').waitFor();
  await page.locator('section[data-anchor] .ProseMirror').first().waitFor();
}
const section = (page: Page, anchor: string) => page.locator(`section[data-anchor="${anchor}"]`);

beforeAll(async () => {
  ada = await registerUser(suite.app, 'ada');
  agentKey = await createKey(suite.app, ada, 'agent');
  suggestKey = await createKey(suite.app, ada, 'reviewer bot', 'suggest');
});

it('shows a new suggestion in the section it changes, word by word, without a reload; the count matches the list', () =>
  suite.withPage(async (page) => {
    const id = await newArticle('Suggestions arriving');
    const numbers = await anchorOf(id, 'Numbers');
    const music = await anchorOf(id, 'Music');
    await openCanvas(page, id);
    expect(await page.locator('section[data-suggestions]').count()).toBe(0);

    const made = await suggest('patch', `/api/articles/${id}/sections/${numbers}`).send({ markdown: '# Numbers\n\nThe engine tabulates Bernoulli numbers.' });
    expect(made.status).toBe(202);
    const madeAt = Date.now();
    // Live: the canvas is told at once (the spec's 1 s); the wait allows for a loaded machine.
    await section(page, numbers).and(page.locator('[data-suggestions="1"]')).waitFor({ timeout: 5_000 });
    console.log(`suggestion shown in the open canvas ${Date.now() - madeAt} ms after the API answered`);

    const card = section(page, numbers).locator(`[data-suggestion="${made.body.data.suggestion.anchor}"]`);
    await card.getByText('reviewer bot (agent)', { exact: false }).waitFor();
    // The words show in the section's text (tracked changes, CONTRACT 23), not copied into the card.
    const text = section(page, numbers).locator('.ProseMirror');
    expect(await text.locator('del[data-change]').allInnerTexts()).toEqual(['computes']);
    expect(await text.locator('ins[data-change]').allInnerTexts()).toEqual(['tabulates']);
    expect(await card.getByTestId('suggestion-text').count()).toBe(0);
    // No raw line diff any more.
    expect(await page.getByText('@@').count()).toBe(0);
    await card.getByRole('button', { name: 'Accept suggestion' }).waitFor();
    await card.getByRole('button', { name: 'Reject suggestion' }).waitFor();

    // A second one, with a note, on another section: two entries, and the header says 2.
    const second = await suggest('post', `/api/articles/${id}/suggestions`).send({
      ops: [{ op: 'replaceText', section: music, find: 'elaborate pieces', replace: 'scientific pieces' }],
      note: 'Lovelace wrote "elaborate and scientific".',
    });
    expect(second.status).toBe(201);
    await section(page, music).and(page.locator('[data-suggestions="1"]')).waitFor({ timeout: 5_000 });
    const overview = page.getByTestId('suggestions');
    await overview.getByRole('heading', { name: 'Suggestions (2)' }).waitFor();
    expect(await overview.locator('li[data-suggestion]').count()).toBe(2);
    await section(page, music).getByTestId('suggestion-note').getByText('Lovelace wrote').waitFor();
    expect(await section(page, music).locator('.ProseMirror ins[data-change]').allInnerTexts()).toEqual(['scientific']);
    expect(await section(page, music).locator('.ProseMirror del[data-change]').allInnerTexts()).toEqual(['elaborate']);
    // The overview takes you to the section.
    await overview.getByRole('button', { name: 'Show in "Music"' }).click();
    await shoot(page, 'suggestion-in-place-laptop');
    await section(page, numbers).screenshot({ path: path.join(SHOTS, 'section-with-suggestion-laptop.png'), animations: 'disabled' });
  }));

it('accepts a suggestion from the section: the text changes and the marks go', () =>
  suite.withPage(async (page) => {
    const id = await newArticle('Suggestion accepted');
    const numbers = await anchorOf(id, 'Numbers');
    const made = await suggest('patch', `/api/articles/${id}/sections/${numbers}`).send({ markdown: '# Numbers\n\nThe engine tabulates polynomials by differences.' });
    expect(made.status).toBe(202);
    await openCanvas(page, id);
    const card = section(page, numbers).locator(`[data-suggestion="${made.body.data.suggestion.anchor}"]`);
    await card.getByRole('button', { name: 'Accept suggestion' }).click();
    await section(page, numbers).locator('.ProseMirror').getByText('The engine tabulates polynomials by differences.').waitFor();
    await card.waitFor({ state: 'detached' });
    expect(await section(page, numbers).getAttribute('data-suggestions')).toBeNull();
    expect(await section(page, numbers).locator('ins, del').count()).toBe(0);
    expect(await page.getByTestId('suggestions').count()).toBe(0);

    expect(await suggestionOf(id, made.body.data.suggestion.anchor)).toEqual(expect.objectContaining({ status: 'accepted', decidedBy: { kind: 'editor', name: 'Chief' } }));
    expect((await api('get', `/api/articles/${id}/sections/${numbers}`)).body.data.section.markdown).toBe('# Numbers\n\nThe engine tabulates polynomials by differences.');
  }));

it('rejects a suggestion from the section with a reason, which the agent reads back', () =>
  suite.withPage(async (page) => {
    const id = await newArticle('Suggestion rejected');
    const music = await anchorOf(id, 'Music');
    const made = await suggest('patch', `/api/articles/${id}/sections/${music}`).send({ markdown: '# Music\n\nIt plays only waltzes.' });
    expect(made.status).toBe(202);
    const { anchor } = made.body.data.suggestion;
    await openCanvas(page, id);
    const card = section(page, music).locator(`[data-suggestion="${anchor}"]`);
    await card.getByRole('button', { name: 'Reject suggestion' }).click();
    const dialog = page.getByTestId('reject-dialog');
    await dialog.getByRole('heading', { name: 'Reject this suggestion?' }).waitFor();
    // Cancelling decides nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await suggestionOf(id, anchor)).status).toBe('pending');

    await card.getByRole('button', { name: 'Reject suggestion' }).click();
    await dialog.getByLabel('Reason').fill('The engine is not limited to waltzes.');
    await shoot(page, 'reject-from-section-laptop');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card.waitFor({ state: 'detached' });
    expect(await section(page, music).getAttribute('data-suggestions')).toBeNull();

    expect(await suggestionOf(id, anchor)).toEqual(
      expect.objectContaining({ status: 'rejected', reason: 'The engine is not limited to waltzes.', decidedBy: { kind: 'editor', name: 'Chief' } }),
    );
    expect((await api('get', `/api/articles/${id}/sections/${music}`)).body.data.section.markdown).not.toContain('waltzes');
  }));

it('warns who starts typing in a section a suggestion waits on; the suggestion made stale is applied by hand', () =>
  suite.withPage(async (page) => {
    const id = await newArticle('Suggestion gone stale');
    const looms = await anchorOf(id, 'Looms');
    const made = await suggest('patch', `/api/articles/${id}/sections/${looms}`).send({ markdown: '# Looms\n\nIt weaves algebraic patterns, as the Jacquard loom weaves flowers.' });
    expect(made.status).toBe(202);
    const { anchor } = made.body.data.suggestion;
    await openCanvas(page, id);
    const card = section(page, looms).locator(`[data-suggestion="${anchor}"]`);
    await card.and(page.locator('[data-status="pending"]')).waitFor();
    expect(await section(page, looms).getByTestId('suggestion-warning').count()).toBe(0);

    // The caret in the paragraph before typing: on a loaded machine the section can still shift
    // under the click (its suggestion rendering in place), and the caret land in the heading.
    const paragraph = section(page, looms).locator('.ProseMirror p').first();
    for (let tries = 0; tries < 5; tries += 1) {
      await paragraph.click();
      if (await paragraph.evaluate((p) => p.contains(document.getSelection()?.anchorNode ?? null))) break;
    }
    await page.keyboard.press('End');
    await page.keyboard.type(' By hand.');
    const warning = section(page, looms).getByTestId('suggestion-warning');
    await warning.getByText("An agent's suggestion is waiting on this section: typing here may make it stale. Review it first.").waitFor();
    // A warning, not a modal: the editor keeps typing.
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.keyboard.type(' Still typing.');
    await shoot(page, 'typing-warning-laptop');

    // Stored (at most 2 s after the last keystroke), the section is newer than the suggestion: apply by hand.
    await card.and(page.locator('[data-status="stale"]')).waitFor({ timeout: 20_000 });
    expect(await card.getByRole('button', { name: 'Accept suggestion' }).count()).toBe(0);
    await card.getByText('What it suggested:').waitFor();
    const dialog = page.getByTestId('apply-by-hand-dialog');
    // The card re-renders as the typing's stores land; a click on a button being replaced is lost
    // (twice in a row here on a loaded machine): click again until the dialog shows.
    for (let tries = 0; tries < 4 && !(await dialog.isVisible()); tries += 1) {
      await card.getByRole('button', { name: 'Apply by hand' }).click();
      await dialog.waitFor({ timeout: 3_000 }).catch(() => undefined);
    }
    await dialog.locator('[data-version="current"]').getByText('Still typing.', { exact: false }).waitFor();
    await dialog.locator('[data-version="suggested"]').getByText('as the Jacquard loom weaves flowers', { exact: false }).waitFor();
    expect((await dialog.locator('[data-version="suggested"] ins').allInnerTexts()).join(' ')).toContain('Jacquard');
    expect((await dialog.locator('[data-version="current"] del').allInnerTexts()).join(' ')).toContain('Still typing.');
    await shoot(page, 'apply-by-hand-laptop');
    await dialog.getByRole('button', { name: 'Done: close the suggestion' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card.waitFor({ state: 'detached' });

    const closed = await suggestionOf(id, anchor);
    expect(closed).toEqual(expect.objectContaining({ status: 'rejected', decidedBy: { kind: 'editor', name: 'Chief' } }));
    expect(closed.reason).toMatch(/^Applied by hand/);
  }));

it('shows a suggestion in place on a phone', () =>
  suite.withPage(
    async (page) => {
      const id = await newArticle('Suggestion on a phone');
      const numbers = await anchorOf(id, 'Numbers');
      const made = await suggest('post', `/api/articles/${id}/suggestions`).send({
        ops: [{ op: 'replaceText', section: numbers, find: 'computes Bernoulli numbers', replace: 'computes the Bernoulli numbers, step by step' }],
        note: 'As in Note G.',
      });
      expect(made.status).toBe(201);
      await openCanvas(page, id);
      await section(page, numbers).and(page.locator('[data-suggestions="1"]')).waitFor();
      // Nothing sticks out sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await section(page, numbers).scrollIntoViewIfNeeded();
      await shoot(page, 'suggestion-in-place-phone', { fullPage: false });
      await shoot(page, 'suggestion-in-place-phone-full');
    },
    { viewport: PHONE },
  ));
