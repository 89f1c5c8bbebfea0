/**
 * Editors write under their own name (issue 36 point 2): New article's owner is "Me" unless the
 * editor picks a user; the article then belongs to the admin's own user (made on first use with
 * their email), and the list's "Mine" filter shows it and not other people's articles.
 */
import { adminSuite } from '../helpers/admin-e2e';
import { bearer, createKey, registerUser } from '../helpers/strapi';

const suite = adminSuite();

it('New article belongs to the editor by default, and "Mine" lists only their articles', () =>
  suite.withPage(async (page) => {
    const agentKey = await createKey(suite.app, await registerUser(suite.app, 'ada'));
    expect((await suite.app.http.post('/api/articles').set(bearer(agentKey)).send({ title: 'Written by an agent' })).status).toBe(201);

    await page.goto(suite.url('/admin/plugins/quire'));
    await page.getByRole('heading', { name: 'Articles', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New article' }).click();
    const form = page.getByTestId('new-article');
    expect(await form.getByRole('combobox', { name: 'Owner' }).inputValue()).toBe('Me (under my own name)');
    await form.getByLabel('Title').fill('In my own name');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'In my own name', level: 1 }).waitFor();
    const id = page.url().split('/').pop()!;
    const own = await suite.app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { email: suite.superAdmin.email.toLowerCase() } });
    const row = await suite.app.strapi.db.connection('quire_articles').where({ uuid: id }).first('user_id');
    expect(Number(row.user_id)).toBe(Number(own.id));

    await page.goto(suite.url('/admin/plugins/quire'));
    const filter = page.getByRole('combobox', { name: 'Owner' });
    await filter.click();
    await page.getByRole('option', { name: 'Mine' }).click();
    await page.waitForURL(/owner=me/);
    await page.locator(`tr[data-article="${id}"]`).waitFor();
    await page.getByText('Written by an agent').waitFor({ state: 'detached' });
    expect(await page.locator('tr[data-article]').count()).toBe(1);
  }));
