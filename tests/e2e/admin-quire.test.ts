/**
 * The Quire pages of the admin panel in Chromium: the menu link, the articles of every user
 * (an article written by an agent through the API shows up with its owner and status),
 * search, filters, paging state in the URL, and the article's page.
 */
import { adminSuite } from '../helpers/admin-e2e';
import { PHONE } from '../helpers/browser';
import { bearer, createKey, registerUser, type TestUser } from '../helpers/strapi';

const suite = adminSuite();
let ada: TestUser;
let grace: TestUser;
const articles: Record<string, { id: string; words: number }> = {};

beforeAll(async () => {
  ada = await registerUser(suite.app, 'ada');
  grace = await registerUser(suite.app, 'grace');
  const adaKey = await createKey(suite.app, ada, 'agent');
  const graceKey = await createKey(suite.app, grace, 'agent');
  const create = async (key: string, title: string, markdown: string) => {
    const res = await suite.app.http.post('/api/articles').set(bearer(key)).send({ title, markdown });
    if (res.status !== 201) throw new Error(`article: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.data.article.id, words: res.body.data.article.words };
  };
  articles.anchors = await create(adaKey, 'Field notes on anchors', '# Why anchors\n\nShort ids that agents can type.\n\n# How\n\nUnique prefixes.');
  articles.bug = await create(graceKey, 'The First Bug', 'A moth, taped into the log book.');
  const published = await suite.app.http.post(`/api/articles/${articles.bug.id}/publish`).set(bearer(graceKey));
  if (published.status !== 200) throw new Error(`publish: ${published.status} ${JSON.stringify(published.body)}`);
});

const rowOf = (id: string) => `tr[data-article="${id}"]`;

it('the Quire menu link opens the articles list, showing what an agent wrote with its owner and status', () =>
  suite.withPage(async (page) => {
    await page.goto(suite.url('/admin'));
    await page.getByRole('navigation').getByRole('link', { name: 'Quire' }).click();
    await page.waitForURL(suite.url('/admin/plugins/quire'));
    await page.getByRole('heading', { name: 'Articles', level: 1 }).waitFor();

    const anchors = page.locator(rowOf(articles.anchors.id));
    await anchors.waitFor();
    const cells = await anchors.locator('td').allInnerTexts();
    expect(cells[0]).toBe('Field notes on anchors');
    expect(cells[1]).toContain(ada.username);
    expect(cells[1]).toContain(ada.email);
    expect(cells[2]).toMatch(/draft/i);
    expect(cells[3]).toBe(String(articles.anchors.words));
    expect(cells[4]).toBe('2');
    expect(await page.locator(rowOf(articles.bug.id)).locator('td').nth(2).innerText()).toMatch(/published/i);
    // The most recently updated first: the published one.
    expect(await page.locator('tbody tr').first().getAttribute('data-article')).toBe(articles.bug.id);
    expect(await page.getByText('2 articles, by every user').count()).toBe(1);
  }));

it('searches by title and filters by status and owner, keeping them in the URL', () =>
  suite.withPage(async (page) => {
    await page.goto(suite.url('/admin/plugins/quire'));
    await page.locator(rowOf(articles.anchors.id)).waitFor();

    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByLabel('Search articles by title').fill('NOTES ON');
    await page.keyboard.press('Enter');
    await page.waitForURL(/_q=NOTES/);
    await page.locator(rowOf(articles.bug.id)).waitFor({ state: 'detached' });
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.getByText('1 article matches the search and filters').waitFor();

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.locator(rowOf(articles.bug.id)).waitFor();
    expect(await page.getByLabel('Search articles by title').count()).toBe(0); // the search box closed, empty

    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Published' }).click();
    await page.waitForURL(/status=published/);
    await page.locator(rowOf(articles.anchors.id)).waitFor({ state: 'detached' });
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.locator(rowOf(articles.anchors.id)).waitFor();

    const owner = page.getByRole('combobox', { name: 'Owner' });
    await owner.click();
    await owner.fill(grace.username);
    await page.getByRole('option', { name: `${grace.username} (${grace.email})` }).click();
    await page.waitForURL(new RegExp(`owner=${grace.id}`));
    await page.locator(rowOf(articles.anchors.id)).waitFor({ state: 'detached' });
    expect(await page.locator('tbody tr').count()).toBe(1);

    // The filter survives a reload, with the owner's name in the field.
    await page.reload();
    await page.locator(rowOf(articles.bug.id)).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(1);
    await expect(page.getByRole('combobox', { name: 'Owner' }).inputValue()).resolves.toBe(`${grace.username} (${grace.email})`);
  }));

it("a row opens the article's canvas; an unknown article says so", () =>
  suite.withPage(async (page) => {
    await page.goto(suite.url('/admin/plugins/quire'));
    await page.getByRole('link', { name: 'Field notes on anchors' }).click();
    await page.waitForURL(suite.url(`/admin/plugins/quire/articles/${articles.anchors.id}`));
    await page.getByRole('heading', { name: 'Field notes on anchors', level: 1 }).waitFor();
    await page.getByTestId('canvas').locator('section[data-anchor]').first().waitFor();
    expect(await page.getByText(`By ${ada.username}`).count()).toBe(1);

    await page.getByRole('link', { name: 'Back' }).click();
    await page.waitForURL(suite.url('/admin/plugins/quire'));

    await page.goto(suite.url('/admin/plugins/quire/articles/00000000-0000-4000-8000-000000000000'));
    await page.getByText('This article does not exist (any more).').waitFor();
    await page.getByRole('link', { name: 'Back to the articles' }).click();
    await page.waitForURL(suite.url('/admin/plugins/quire'));
  }));

it('on a phone, the articles are cards', () =>
  suite.withPage(
    async (page) => {
      await page.goto(suite.url('/admin/plugins/quire'));
      const card = page.locator(`li[data-article="${articles.anchors.id}"]`);
      await card.waitFor();
      const text = await card.innerText();
      expect(text).toContain('Field notes on anchors');
      expect(text).toContain(ada.username);
      expect(text).toMatch(/draft/i);
      expect(text).toContain('2 sections');
      expect(await page.locator('table').count()).toBe(0);
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    },
    { viewport: PHONE },
  ));

// Last: it adds articles that the tests above do not expect.
it('pages the list: page 2 holds the rest, none repeated, and the page lives in the URL', async () => {
  const babbage = await registerUser(suite.app, 'babbage');
  const key = await createKey(suite.app, babbage, 'agent');
  const made: string[] = [];
  for (let i = 1; i <= 12; i += 1) {
    const res = await suite.app.http.post('/api/articles').set(bearer(key)).send({ title: `Difference engine ${i}` });
    if (res.status !== 201) throw new Error(`article: ${res.status} ${JSON.stringify(res.body)}`);
    made.push(res.body.data.article.id);
  }
  await suite.withPage(async (page) => {
    await page.goto(suite.url(`/admin/plugins/quire?owner=${babbage.id}`));
    await page.locator('tbody tr').nth(9).waitFor();
    const rowIds = () => page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-article')));
    const first = await rowIds();
    expect(first).toHaveLength(10);

    await page.getByRole('link', { name: 'Go to page 2' }).click();
    await page.waitForURL(/[?&]page=2/);
    await page.locator(`tbody tr[data-article="${first[0]}"]`).waitFor({ state: 'detached' });
    const second = await rowIds();
    expect(second).toHaveLength(2);
    expect([...first, ...second].sort()).toEqual([...made].sort());

    // Back to page 1 through the address: the same ten.
    await page.goBack();
    await page.locator(`tbody tr[data-article="${first[0]}"]`).waitFor();
    expect(await rowIds()).toEqual(first);

    // A larger page holds all twelve.
    await page.getByRole('combobox', { name: 'Entries per page' }).click();
    await page.getByRole('option', { name: '20' }).click();
    await page.waitForURL(/pageSize=20/);
    await page.locator('tbody tr').nth(11).waitFor();
    expect((await rowIds()).sort()).toEqual([...made].sort());
  });
});
