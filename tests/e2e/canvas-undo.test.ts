/**
 * Undo across the article, in Chromium (issue 36 point 3): one history per person per article,
 * over the sections, the premise and the notes (canvas/undo.ts). An editor types in section A,
 * then in B, then in the premise; meanwhile an agent's PATCH changes A and a second editor types
 * in B. With the focus on nothing, Ctrl+Z three times undoes the premise, then B, then A (each
 * brought into view), and neither the agent's text nor the second editor's is undone; Ctrl+Shift+Z
 * redoes. A note added from the Brief is a step of the same history, undone through the notes API
 * (and the section toolbar's Undo takes the same history).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminSuite } from '../helpers/admin-e2e';
import type { TestAdmin } from '../helpers/admin';
import { ARTIFACTS_DIR, PHONE } from '../helpers/browser';
import { bearer, createKey, registerUser } from '../helpers/strapi';
import { waitFor } from '../helpers/wait';

const suite = adminSuite();
let agentKey: string;
let bob: TestAdmin;

const SHOTS = path.join(ARTIFACTS_DIR, 'canvas-undo');
const shoot = async (page: Page, name: string) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), animations: 'disabled' });
};

const api = (method: 'get' | 'patch' | 'post', url: string) => suite.app.http[method](url).set(bearer(agentKey));

/** Retries `read` until `check` holds (what is typed travels through the server); fails with the last value. */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string): Promise<T> {
  let value: T | undefined;
  try {
    await waitFor(async () => check((value = await read())), { what, timeout: 20_000, interval: 200 });
  } catch {
    throw new Error(`${what}: still ${JSON.stringify(value)}`);
  }
  return value as T;
}

async function openCanvas(page: Page, id: string) {
  await page.goto(suite.url(`/admin/plugins/quire/articles/${id}`));
  await page.locator('[data-testid="canvas"][data-live="on"]').waitFor();
  await page.locator('section[data-anchor] .ProseMirror').first().waitFor();
}

/** A section's editor text, without the other people's caret labels. */
const textOf = (page: Page, anchor: string) =>
  page.locator(`section[data-anchor="${anchor}"] .ProseMirror`).evaluate((element) => {
    const copy = element.cloneNode(true) as HTMLElement;
    copy.querySelectorAll('.collaboration-carets__caret').forEach((caret) => caret.remove());
    return copy.textContent ?? '';
  });
const premiseOf = (page: Page) => page.getByTestId('brief').locator('textarea[data-live-premise]').inputValue();

/** Clicks at the end of a section's paragraph, so what is typed next goes there. */
async function caretAtEnd(page: Page, anchor: string, paragraph: string) {
  const block = page.locator(`section[data-anchor="${anchor}"] .ProseMirror p`, { hasText: paragraph });
  const box = (await block.boundingBox())!;
  await block.click({ position: { x: box.width - 2, y: box.height - 2 } });
  await page.keyboard.press('End');
}

/** Nothing focused: the keys go to the page, not to a field. */
const focusNothing = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

/** A section's stored HTML (what the canvas types is stored as HTML). */
const storedHtml = async (id: string, anchor: string) => (await api('get', `/api/articles/${id}/sections/${anchor}`)).body.data.section.html as string;

beforeAll(async () => {
  const ada = await registerUser(suite.app, 'ada');
  agentKey = await createKey(suite.app, ada, 'undo bot');
  bob = await suite.createAdmin('strapi-super-admin', 'bob');
});

it('undoes this person\'s changes across the sections and the premise, newest first, never the agent\'s or the other editor\'s', async () => {
  const made = await api('post', '/api/articles').send({ title: 'Undo across', premise: 'A premise.', markdown: '# Looms\n\nThe loom weaves.\n\n# Cards\n\nPunched cards.\n\nThey hold patterns.' });
  expect(made.status).toBe(201);
  const id = made.body.data.article.id as string;
  const outline = made.body.data.outline as Array<{ anchor: string; title: string }>;
  const looms = outline.find((s) => s.title === 'Looms')!.anchor;
  const cards = outline.find((s) => s.title === 'Cards')!.anchor;

  await suite.withPage(async (chief) => {
    await suite.withPage(
      async (other) => {
        await openCanvas(chief, id);
        await openCanvas(other, id);

        // A, then B, then the premise. Each as one input (as a paste or a dictated phrase): keys
        // typed one by one are one step too, unless the page stalls 1.5 s between two of them,
        // which a loaded test machine does (tests/unit/canvas-undo.test.ts covers the merging).
        await caretAtEnd(chief, looms, 'The loom weaves.');
        await chief.keyboard.insertText(' Alpha typed.');
        await until(() => storedHtml(id, looms), (html) => html.includes('Alpha typed.'), 'A stored with the typing');
        await caretAtEnd(chief, cards, 'Punched cards.');
        await chief.keyboard.insertText(' Beta typed.');
        const premise = chief.getByTestId('brief').locator('textarea[data-live-premise]');
        await premise.click();
        await chief.keyboard.press('End');
        await chief.keyboard.insertText(' Gamma typed.');

        // Meanwhile an agent adds a paragraph to A, and Bob types in B.
        const current = await storedHtml(id, looms);
        const patched = await api('patch', `/api/articles/${id}/sections/${looms}`).send({ html: `${current}<p>The agent adds this.</p>` });
        expect(patched.status).toBe(200);
        await until(() => textOf(chief, looms), (text) => text.includes('The agent adds this.'), 'the agent\'s paragraph in the canvas');
        await caretAtEnd(other, cards, 'They hold patterns.');
        await other.keyboard.type(' Bob typed.');
        await until(() => textOf(chief, cards), (text) => text.includes('Bob typed.'), 'Bob\'s typing in the canvas');
        await until(() => premiseOf(chief), (value) => value === 'A premise. Gamma typed.', 'the premise typed');

        // Ctrl+Z with the focus on nothing: the premise first.
        await focusNothing(chief);
        await chief.keyboard.press('Control+z');
        await until(() => premiseOf(chief), (value) => value === 'A premise.', 'the premise undone');
        expect(await textOf(chief, cards)).toContain('Beta typed.');
        expect(await textOf(chief, looms)).toContain('Alpha typed.');
        // The change is brought into view: the premise has the focus.
        expect(await chief.evaluate(() => document.activeElement?.hasAttribute('data-live-premise'))).toBe(true);

        // Then B: the editor's typing goes, Bob's stays.
        await focusNothing(chief);
        await chief.keyboard.press('Control+z');
        await until(() => textOf(chief, cards), (text) => !text.includes('Beta'), 'B undone');
        expect(await textOf(chief, cards)).toContain('Bob typed.');
        expect(await textOf(chief, looms)).toContain('Alpha typed.');
        await chief.locator(`section[data-anchor="${cards}"] .ProseMirror:focus`).waitFor();
        await shoot(chief, 'b-undone-laptop');

        // Then A, from inside B's editor: the agent's paragraph stays.
        await chief.keyboard.press('Control+z');
        await until(() => textOf(chief, looms), (text) => !text.includes('Alpha'), 'A undone');
        expect(await textOf(chief, looms)).toContain('The agent adds this.');
        await chief.locator(`section[data-anchor="${looms}"] .ProseMirror:focus`).waitFor();

        // Nothing more of the editor's: another Ctrl+Z changes nothing of the others'.
        await chief.keyboard.press('Control+z');
        expect(await premiseOf(chief)).toBe('A premise.');
        expect(await textOf(chief, cards)).toContain('Bob typed.');

        // The server and the other editor have it so.
        const a = await until(() => storedHtml(id, looms), (html) => !html.includes('Alpha typed.'), 'A stored undone');
        expect(a).toContain('The agent adds this.');
        const b = await until(() => storedHtml(id, cards), (html) => !html.includes('Beta typed.'), 'B stored undone');
        expect(b).toContain('Bob typed.');
        await until(() => premiseOf(other), (value) => value === 'A premise.', 'the premise undone for Bob');

        // Redo, from nowhere: A comes back first (the last undone).
        await focusNothing(chief);
        await chief.keyboard.press('Control+Shift+z');
        await until(() => textOf(chief, looms), (text) => text.includes('Alpha typed.') && text.includes('The agent adds this.'), 'A redone');
        expect(await textOf(chief, cards)).not.toContain('Beta typed.');
      },
      { as: bob },
    );
  });
});

it('puts a note added from the Brief on the same history: undone through the notes API, after the text typed since', () =>
  suite.withPage(async (page) => {
    const made = await api('post', '/api/articles').send({ title: 'Undo a note', markdown: '# One\n\nSome text.' });
    expect(made.status).toBe(201);
    const id = made.body.data.article.id as string;
    const one = made.body.data.outline[0].anchor as string;
    const notes = async () => ((await api('get', `/api/articles/${id}/brief`)).body.data.notes as Array<{ title: string }>).map((note) => note.title);
    await openCanvas(page, id);

    const brief = page.getByTestId('brief');
    await brief.getByRole('button', { name: 'Add note' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByLabel('Title').fill('Check the dates');
    await until(notes, (titles) => titles.includes('Check the dates'), 'the note saved');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await brief.locator('[data-note]', { hasText: 'Check the dates' }).waitFor();

    await caretAtEnd(page, one, 'Some text.');
    await page.keyboard.insertText(' More.');

    // The newest first: the typing (with the toolbar's Undo, as on a phone), then the note.
    await page.locator(`section[data-anchor="${one}"]`).getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Undo', exact: true }).click();
    await until(() => textOf(page, one), (text) => !text.includes('More.'), 'the typing undone');
    expect(await notes()).toEqual(['Check the dates']);
    await focusNothing(page);
    await page.keyboard.press('Control+z');
    await until(notes, (titles) => titles.length === 0, 'the note undone');
    await brief.locator('[data-note]').waitFor({ state: 'detached' });

    // Redo brings it back.
    await page.keyboard.press('Control+Shift+z');
    await until(notes, (titles) => titles.includes('Check the dates'), 'the note redone');
    await brief.locator('[data-note]', { hasText: 'Check the dates' }).waitFor();
  }));

it('does not undo a note someone else changed since: it says so', () =>
  suite.withPage(
    async (page) => {
      const made = await api('post', '/api/articles').send({ title: 'Undo a changed note', markdown: '# One\n\nSome text.' });
      const id = made.body.data.article.id as string;
      await openCanvas(page, id);
      const brief = page.getByTestId('brief');
      await brief.getByRole('button', { name: 'Add note' }).click();
      const dialog = page.getByRole('alertdialog');
      await dialog.getByLabel('Title').fill('Mine first');
      const read = async () => (await api('get', `/api/articles/${id}/brief`)).body.data.notes as Array<{ anchor: string; title: string }>;
      const [note] = await until(read, (list) => list.length === 1, 'the note saved');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'detached' });

      // The agent changes it: undoing the addition would delete their text.
      expect((await api('patch', `/api/articles/${id}/notes/${note.anchor}`).send({ title: 'The agent\'s now' })).status).toBe(200);
      await brief.locator('[data-note]', { hasText: 'The agent\'s now' }).waitFor();
      await focusNothing(page);
      await page.keyboard.press('Control+z');
      await page.getByText('was changed by someone else since').waitFor();
      await shoot(page, 'note-kept-phone');
      expect((await read()).map((n) => n.title)).toEqual(['The agent\'s now']);
    },
    { viewport: PHONE },
  ));
