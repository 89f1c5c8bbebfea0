/**
 * Threads in the canvas (CONTRACT 24, issue 35), in Chromium: an agent's thread (API key, POST
 * threads) shows in an open canvas, its quote marked `[data-thread="<anchor>"]` in the
 * section, without a reload (the live document's meta.threadsRev); the editor replies,
 * resolves (the mark goes) and reopens it; the agent's reply arrives live; selecting text and
 * "Comment" opens a thread on it, as the editor (checked through the API). With two canvases
 * open on one article, an agent's thread is marked in both, and what an editor does in one
 * (reply, resolve, a new thread on a selection) shows in the other. The articles list shows
 * each article's open threads, on a laptop and on a phone.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminSuite } from '../helpers/admin-e2e';
import { ARTIFACTS_DIR, PHONE } from '../helpers/browser';
import { bearer, createKey, registerUser } from '../helpers/strapi';
import { waitFor } from '../helpers/wait';

const suite = adminSuite();
let agentKey: string;

const SHOTS = path.join(ARTIFACTS_DIR, 'canvas-threads');
const shoot = async (page: Page, name: string) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true, animations: 'disabled' });
};

const api = (method: 'get' | 'post', url: string) => suite.app.http[method](url).set(bearer(agentKey));

beforeAll(async () => {
  const ada = await registerUser(suite.app, 'ada');
  agentKey = await createKey(suite.app, ada, 'agent');
});

async function newArticle(title: string, markdown: string) {
  const res = await api('post', '/api/articles').send({ title, markdown });
  expect(res.status).toBe(201);
  return { id: res.body.data.article.id as string, anchors: res.body.data.outline.map((s) => s.anchor) as string[] };
}
async function openCanvas(page: Page, id: string) {
  await page.goto(suite.url(`/admin/plugins/quire/articles/${id}`));
  await page.locator('[data-testid="canvas"][data-live="on"]').waitFor();
  await page.locator('section[data-anchor] .ProseMirror').first().waitFor();
}
const threadsOf = async (id: string) => (await api('get', `/api/articles/${id}/threads`)).body.data.threads;

it('marks an agent\'s thread live; the editor replies, resolves and reopens it; the agent\'s reply arrives live', async () => {
  const { id, anchors } = await newArticle('Threads', '# Numbers\n\nThe engine computes Bernoulli numbers.\n\n# Music\n\nIt might compose music.');
  await suite.withPage(async (page) => {
    await openCanvas(page, id);
    const made = await api('post', `/api/articles/${id}/threads`).send({ section: anchors[0], quote: 'Bernoulli numbers', body: 'Which ones?' });
    expect(made.status).toBe(201);
    const { anchor } = made.body.data.thread;
    const started = Date.now();
    const mark = page.locator(`section[data-anchor="${anchors[0]}"] .ProseMirror [data-thread="${anchor}"]`);
    await mark.waitFor({ timeout: 15_000 });
    // eslint-disable-next-line no-console
    console.log(`canvas-threads: an agent's thread marked ${Date.now() - started} ms after its POST (target 1000)`);
    expect(await mark.textContent()).toBe('Bernoulli numbers');
    const card = page.locator(`section[data-anchor="${anchors[0]}"] [data-thread-card="${anchor}"]`);
    await card.getByText('Which ones?').waitFor();

    await card.getByLabel('Reply to this thread').fill('The **odd** ones.');
    await card.getByRole('button', { name: 'Reply', exact: true }).click();
    await card.locator('strong', { hasText: 'odd' }).waitFor();
    await waitFor(async () => (await threadsOf(id))[0].comments.length === 2, { what: 'the reply stored' });
    expect((await threadsOf(id))[0].comments[1]).toMatchObject({ body: 'The **odd** ones.', by: { kind: 'editor' } });

    // The agent answers: the card shows it without a reload.
    expect((await api('post', `/api/articles/${id}/threads/${anchor}/comments`).send({ body: 'Thanks, agent here.' })).status).toBe(201);
    await card.getByText('Thanks, agent here.').waitFor({ timeout: 15_000 });

    await card.getByRole('button', { name: 'Resolve' }).click();
    await page.locator(`[data-thread-card="${anchor}"][data-status="resolved"]`).waitFor();
    await mark.waitFor({ state: 'detached' });
    expect((await threadsOf(id))[0]).toMatchObject({ status: 'resolved', resolvedBy: { kind: 'editor' } });

    await card.getByRole('button', { name: 'Reopen' }).click();
    await page.locator(`[data-thread-card="${anchor}"][data-status="open"]`).waitFor();
    await mark.waitFor();
    expect((await threadsOf(id))[0].status).toBe('open');
  });
});

it('selecting text and "Comment" opens a thread on it, as the editor', async () => {
  const { id, anchors } = await newArticle('Selection', '# Music\n\nIt might compose music.');
  await suite.withPage(async (page) => {
    await openCanvas(page, id);
    const block = page.locator(`section[data-anchor="${anchors[0]}"] .ProseMirror p`, { hasText: 'compose' });
    const box = (await block.boundingBox())!;
    await block.click({ position: { x: box.width - 2, y: box.height - 2 } });
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+Home');
    await page.getByTestId('comment-selection').click();
    const box2 = page.getByTestId('new-thread');
    await box2.getByLabel('Your comment on the selected text').fill('Which music?');
    await box2.getByRole('button', { name: 'Comment', exact: true }).click();
    await box2.waitFor({ state: 'detached' });
    const threads = await waitFor(async () => {
      const list = await threadsOf(id);
      return list.length === 1 ? list : false;
    }, { what: 'the new thread' });
    expect(threads[0]).toMatchObject({ section: anchors[0], quote: 'It might compose music.', status: 'open', by: { kind: 'editor' } });
    expect(threads[0].comments[0]).toMatchObject({ body: 'Which music?', by: { kind: 'editor' } });
    await page.locator(`[data-thread="${threads[0].anchor}"]`).waitFor();
  });
});

it('two canvases on one article: an agent\'s thread is marked in both; a reply, a resolve and a new thread in one show in the other', async () => {
  const { id, anchors } = await newArticle('Two canvases', '# Engine\n\nThe engine weaves algebraic patterns.\n\n# Loom\n\nAs the loom weaves flowers and leaves.');
  // Two contexts of the same admin (each its own live connection), the second nested in the first.
  await suite.withPage(async (first) => {
    await suite.withPage(async (second) => {
      await Promise.all([openCanvas(first, id), openCanvas(second, id)]);
      const made = await api('post', `/api/articles/${id}/threads`).send({ section: anchors[0], quote: 'algebraic patterns', body: 'Which patterns?' });
      expect(made.status).toBe(201);
      const { anchor } = made.body.data.thread;
      const started = Date.now();
      const markIn = (page: Page) => page.locator(`section[data-anchor="${anchors[0]}"] .ProseMirror [data-thread="${anchor}"]`);
      const times = await Promise.all(
        [first, second].map(async (page) => {
          await markIn(page).waitFor({ timeout: 15_000 });
          return Date.now() - started;
        }),
      );
      // eslint-disable-next-line no-console
      console.log(`canvas-threads: an agent's thread marked in two canvases ${times.join(' and ')} ms after its POST (target 1000 each)`);
      for (const page of [first, second]) expect(await markIn(page).textContent()).toBe('algebraic patterns');

      // The editor replies and resolves in the first; the second shows both.
      const cardIn = (page: Page) => page.locator(`section[data-anchor="${anchors[0]}"] [data-thread-card="${anchor}"]`);
      await cardIn(first).getByLabel('Reply to this thread').fill('The *Bernoulli* ones.');
      await cardIn(first).getByRole('button', { name: 'Reply', exact: true }).click();
      await cardIn(second).locator('em', { hasText: 'Bernoulli' }).waitFor({ timeout: 15_000 });
      await cardIn(first).getByRole('button', { name: 'Resolve' }).click();
      await second.locator(`[data-thread-card="${anchor}"][data-status="resolved"]`).waitFor({ timeout: 15_000 });
      await markIn(second).waitFor({ state: 'detached' });
      expect((await threadsOf(id))[0]).toMatchObject({ status: 'resolved', resolvedBy: { kind: 'editor' }, comments: [{ body: 'Which patterns?' }, { body: 'The *Bernoulli* ones.', by: { kind: 'editor' } }] });

      // The editor in the second selects words and comments on them; the first marks them.
      const block = second.locator(`section[data-anchor="${anchors[1]}"] .ProseMirror p`, { hasText: 'loom' });
      const box = (await block.boundingBox())!;
      await block.click({ position: { x: box.width - 2, y: box.height - 2 } });
      await second.keyboard.press('End');
      await second.keyboard.press('Shift+Home');
      await second.getByTestId('comment-selection').click();
      const compose = second.getByTestId('new-thread');
      await compose.getByLabel('Your comment on the selected text').fill('Which flowers?');
      await compose.getByRole('button', { name: 'Comment', exact: true }).click();
      await compose.waitFor({ state: 'detached' });
      const fresh = await waitFor(async () => (await threadsOf(id)).find((t) => t.section === anchors[1]) ?? false, { what: 'the thread from the second canvas' });
      expect(fresh).toMatchObject({ quote: 'As the loom weaves flowers and leaves.', status: 'open', by: { kind: 'editor' } });
      await first.locator(`section[data-anchor="${anchors[1]}"] .ProseMirror [data-thread="${fresh.anchor}"]`).waitFor({ timeout: 15_000 });
      await first.locator(`[data-thread-card="${fresh.anchor}"]`).getByText('Which flowers?').waitFor();
      await shoot(first, 'two-canvases-first-laptop');
    });
  });
});

it('the articles list shows each article\'s open threads, on a laptop and on a phone', async () => {
  const { id, anchors } = await newArticle('Listed threads', '# Numbers\n\nOne, two and three.');
  for (const quote of ['One', 'two']) expect((await api('post', `/api/articles/${id}/threads`).send({ section: anchors[0], quote, body: 'Why?' })).status).toBe(201);
  const quiet = await newArticle('Listed without threads', '# Quiet\n\nNothing to say.');
  await suite.withPage(async (page) => {
    await page.goto(suite.url('/admin/plugins/quire'));
    const row = page.locator(`tr[data-article="${id}"]`);
    await row.waitFor();
    expect(await row.locator('[data-open-threads]').getAttribute('data-open-threads')).toBe('2');
    expect(await row.locator('[data-open-threads]').getAttribute('title')).toBe('2 open threads');
    expect(await page.locator(`tr[data-article="${quiet.id}"] [data-open-threads]`).getAttribute('data-open-threads')).toBe('0');
    expect(await page.locator('thead').getByText('Open threads', { exact: true }).count()).toBe(1);
    await shoot(page, 'articles-list-laptop');
  }, { viewport: { width: 1280, height: 800 } });
  await suite.withPage(
    async (page) => {
      await page.goto(suite.url('/admin/plugins/quire'));
      const card = page.locator(`li[data-article="${id}"]`);
      await card.waitFor();
      expect(await card.locator('[data-open-threads="2"]').textContent()).toBe('2 open threads');
      expect(await page.locator(`li[data-article="${quiet.id}"] [data-open-threads]`).count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await shoot(page, 'articles-list-phone');
    },
    { viewport: PHONE },
  );
});
