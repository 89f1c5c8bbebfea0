/**
 * The canvas's toolbar and insert controls in Chromium (issue 23 point 5): bold, strikethrough,
 * a code block and a table made with the toolbar are stored in the section's HTML as the API
 * returns it (and as Markdown with `as=markdown`: a GFM table, a fenced block, ~strikethrough~);
 * a section inserted at the start and one between two sections land there (GET outline, and the
 * canvas in the same order) and take typing. Screenshots of the toolbar (and its table tools)
 * and of the insert control at laptop and phone widths are kept in
 * .tmp/e2e-artifacts/canvas-toolbar.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { adminSuite } from '../helpers/admin-e2e';
import { ARTIFACTS_DIR, PHONE } from '../helpers/browser';
import { bearer, createKey, registerUser } from '../helpers/strapi';
import { eventually as eventuallyHolds } from '../helpers/wait';

const suite = adminSuite();
let agentKey: string;

const SHOTS = path.join(ARTIFACTS_DIR, 'canvas-toolbar');
const shoot = async (target: Page | Locator, name: string) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await target.screenshot({ path: path.join(SHOTS, `${name}.png`), animations: 'disabled' });
};

const api = (method: 'get' | 'post', url: string) => suite.app.http[method](url).set(bearer(agentKey));
/** Retries `read` until it returns `expected` (the canvas stores at most 2 s after a keystroke). */
async function eventually<T>(read: () => Promise<T>, expected: T) {
  await eventuallyHolds(async () => expect(await read()).toEqual(expected), { timeout: 15000, interval: 200 });
}

const sectionAt = (page: Page, title: string) => page.locator('section[data-anchor]', { has: page.getByRole('heading', { name: title }) });

async function newArticle(title: string, markdown: string) {
  const made = await api('post', '/api/articles').send({ title, markdown });
  expect(made.status).toBe(201);
  return made.body.data.article.id as string;
}

async function openCanvas(page: Page, id: string) {
  await page.goto(suite.url(`/admin/plugins/quire/articles/${id}`));
  await page.locator('section[data-anchor] [contenteditable="true"]').first().waitFor();
}

beforeAll(async () => {
  const ada = await registerUser(suite.app, 'ada');
  agentKey = await createKey(suite.app, ada, 'agent');
});

it('bold, strikethrough, a code block and a table from the toolbar are stored in the HTML the API returns, and read back as Markdown', () =>
  suite.withPage(async (page) => {
    const id = await newArticle('On the Mill', '# Mill\n\nThe mill computes.');
    await openCanvas(page, id);
    const mill = sectionAt(page, 'Mill');
    const anchor = (await mill.getAttribute('data-anchor'))!;
    const editor = mill.locator('[contenteditable="true"]');
    const toolbar = mill.getByRole('toolbar', { name: 'Formatting' });
    const tool = (name: string) => toolbar.getByRole('button', { name, exact: true });

    await editor.getByText('The mill computes.').click();
    await page.keyboard.press('End');
    await toolbar.waitFor();
    await shoot(mill, 'toolbar-laptop');

    // Bold: switched on, typed, switched off.
    await page.keyboard.press('Enter');
    await tool('Bold').click();
    await page.keyboard.type('Strong words');
    await tool('Bold').click();
    // Strikethrough.
    await page.keyboard.press('Enter');
    await tool('Strikethrough').click();
    await page.keyboard.type('struck');
    expect(await tool('Strikethrough').getAttribute('aria-pressed')).toBe('true');
    await tool('Strikethrough').click();
    // A code block; three Enters at its end leave it for a paragraph.
    await page.keyboard.press('Enter');
    await tool('Code block').click();
    await page.keyboard.type('const x = 1;');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    // A table: a header row and two rows; Tab goes to the next cell; one more row from the table tools.
    await tool('Table (3 × 3, with a header row)').click();
    for (const [index, cell] of ['Name', 'Score', 'Notes', 'Ada', '3', 'first'].entries()) {
      if (index) await page.keyboard.press('Tab');
      await page.keyboard.type(cell);
    }
    const tableTools = mill.getByRole('group', { name: 'Table' });
    await tableTools.getByRole('button', { name: 'Add a row below' }).click();
    // The caret stays in "first"; Tab goes to the new row's first cell.
    await page.keyboard.press('Tab');
    await page.keyboard.type('Grace');
    await shoot(mill, 'toolbar-table-laptop');

    const stored = async () => (await api('get', `/api/articles/${id}/sections/${anchor}`)).body.data.section;
    await eventually(async () => ((await stored()).html as string).includes('<td colspan="1" rowspan="1"><p>Grace</p></td>'), true);
    const section = await stored();
    expect(section.source).toBe('html');
    const html = section.html as string;
    expect(html).toContain('<strong>Strong words</strong>');
    expect(html).toContain('<s>struck</s>');
    expect(html).toContain('<pre><code>const x = 1;</code></pre>');
    expect(html).toMatch(/<table><tbody><tr><th[^>]*><p>Name<\/p><\/th><th[^>]*><p>Score<\/p><\/th><th[^>]*><p>Notes<\/p><\/th><\/tr>/);
    expect(html.match(/<tr>/g)).toHaveLength(4);

    const markdown = (await api('get', `/api/articles/${id}/sections/${anchor}?as=markdown`)).body.data.section.markdown as string;
    expect(markdown).toContain('**Strong words**');
    expect(markdown).toContain('~struck~');
    expect(markdown).toContain('```\nconst x = 1;\n```');
    expect(markdown).toContain('| Name | Score | Notes |\n| --- | --- | --- |\n| Ada | 3 | first |\n| Grace |');
  }));

it('inserts a section between two sections and at the start: the outline and the canvas have them there, and they take typing', () =>
  suite.withPage(async (page) => {
    const id = await newArticle('On the Store', '# Mill\n\nThe mill computes.\n\n# Store\n\nThe store remembers.');
    const outline = async () => (await api('get', `/api/articles/${id}/outline`)).body.data.outline as Array<{ anchor: string; title: string }>;
    const canvasAnchors = () => page.locator('section[data-anchor]').evaluateAll((els) => els.map((el) => el.getAttribute('data-anchor')));
    await openCanvas(page, id);
    const canvas = page.getByTestId('canvas');
    await shoot(canvas, 'insert-laptop');

    // Between Mill and Store.
    await canvas.getByRole('button', { name: 'Add a section after "Mill"' }).click();
    const adding = page.getByRole('alertdialog');
    await adding.getByText('Add a section after "Mill"').waitFor();
    await adding.getByLabel('Heading').fill('Barrel');
    await adding.getByRole('button', { name: 'Add', exact: true }).click();
    await adding.waitFor({ state: 'detached' });
    await eventually(async () => (await outline()).map((s) => s.title), ['Mill', 'Barrel', 'Store']);
    await sectionAt(page, 'Barrel').locator('[contenteditable="true"]').waitFor();
    await eventually(canvasAnchors, (await outline()).map((s) => s.anchor));

    // At the start (Enter adds, as the Add button does).
    await canvas.getByRole('button', { name: 'Add a section at the start' }).click();
    await adding.getByText('Add a section at the start').waitFor();
    await adding.getByLabel('Heading').fill('Preface');
    await page.keyboard.press('Enter');
    await adding.waitFor({ state: 'detached' });
    await eventually(async () => (await outline()).map((s) => s.title), ['Preface', 'Mill', 'Barrel', 'Store']);
    await eventually(canvasAnchors, (await outline()).map((s) => s.anchor));
    expect(await page.getByTestId('outline').locator('[data-outline-title]').allInnerTexts()).toEqual(['Preface', 'Mill', 'Barrel', 'Store']);

    // The inserted sections take typing, stored as any other.
    for (const [title, text] of [
      ['Barrel', 'The barrel holds the program.'],
      ['Preface', 'Before the engine.'],
    ]) {
      const section = sectionAt(page, title);
      const anchor = (await section.getAttribute('data-anchor'))!;
      await section.getByRole('heading', { name: title }).click();
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await page.keyboard.type(text);
      await eventually(async () => ((await api('get', `/api/articles/${id}/sections/${anchor}`)).body.data.section.html as string).includes(`<p>${text}</p>`), true);
    }
    expect((await outline()).map((s) => s.title)).toEqual(['Preface', 'Mill', 'Barrel', 'Store']);
  }));

it('shows the toolbar and the insert controls at phone width', () =>
  suite.withPage(
    async (page) => {
      const id = await newArticle('On the Printer', '# Printer\n\nThe printer sets type.\n\n# Plotter\n\nThe plotter draws.');
      await openCanvas(page, id);
      const printer = sectionAt(page, 'Printer');
      await printer.scrollIntoViewIfNeeded();
      await shoot(page.getByTestId('canvas'), 'insert-phone');
      await printer.locator('[contenteditable="true"]').getByText('The printer sets type.').click();
      const toolbar = printer.getByRole('toolbar', { name: 'Formatting' });
      await toolbar.waitFor();
      await shoot(printer, 'toolbar-phone');
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await toolbar.getByRole('button', { name: 'Table (3 × 3, with a header row)' }).click();
      await printer.getByRole('group', { name: 'Table' }).waitFor();
      await shoot(printer, 'toolbar-table-phone');
      // Every tool has a name (its tooltip and aria-label), none is wider than the phone.
      const names = await toolbar.getByRole('button').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label') || button.textContent?.trim()));
      expect(names.every(Boolean)).toBe(true);
      const box = await toolbar.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    },
    { viewport: PHONE },
  ));
