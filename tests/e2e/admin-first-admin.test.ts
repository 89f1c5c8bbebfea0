/**
 * The first admin of a fresh server, through Strapi's stock pages in Chromium: a stranger who
 * opens /admin gets the sign-in page and cannot register; the link the server printed opens
 * the registration form, which creates the Super Admin.
 */
import type { Browser } from 'playwright-core';
import { adminToken, captureLog, setupLinkIn } from '../helpers/admin';
import { connectBrowser, keepScreenshotOnFailure, newTrackedPage } from '../helpers/browser';
import { startListeningApp } from '../helpers/cli-login';
import type { TestApp } from '../helpers/strapi';

let app: TestApp;
let base: string;
let link: string;
let browser: Browser;
const ada = { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.test', password: 'Analytical-Engine-1843' };

beforeAll(async () => {
  const { result, output } = await captureLog(() => startListeningApp({ SERVE_ADMIN_PANEL: 'true', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' }));
  ({ app, base } = result);
  link = setupLinkIn(output)!.url;
  browser = await connectBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function fillRegistration(page) {
  await page.getByLabel('First name').fill(ada.firstname);
  await page.getByLabel('Last name').fill(ada.lastname);
  await page.getByLabel('Email').fill(ada.email);
  await page.getByLabel('Password*', { exact: true }).fill(ada.password);
  await page.getByLabel('Confirm Password*').fill(ada.password);
  await page.getByRole('button', { name: "Let's start" }).click();
}

it('shows a stranger the sign-in page, and refuses their registration', async () => {
  const { page, context } = await newTrackedPage(browser);
  await keepScreenshotOnFailure(page, async () => {
    await page.goto(`${base}/admin`);
    await page.waitForURL(/\/admin\/auth\/login/);
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(await page.getByRole('button', { name: "Let's start" }).count()).toBe(0);

    // Typing the registration address by hand shows the form, which the server refuses.
    await page.goto(`${base}/admin/auth/register-admin`);
    await fillRegistration(page);
    await page.getByText(/needs the setup token/).waitFor();
    expect(await app.strapi.service('admin::user').exists()).toBe(false);
  });
  await context.close();
});

it('the printed link opens the stock registration form, which creates the Super Admin', async () => {
  expect(link.startsWith(`${base}/admin/auth/register-admin?setupToken=`)).toBe(true);
  const { page, context, problems } = await newTrackedPage(browser);
  await keepScreenshotOnFailure(page, async () => {
    await page.goto(link);
    await page.waitForURL(`${base}/admin/auth/register-admin`); // the token left the address bar
    await page.getByText('Credentials are only used to authenticate in Strapi').waitFor();
    await fillRegistration(page);
    await page.waitForURL(`${base}/admin`);
    await page.getByRole('heading', { name: /Hello Ada/ }).waitFor();
    expect(problems).toEqual([]);
  });
  await context.close();

  const token = await adminToken(app, ada);
  const me = await app.http.get('/admin/users/me').set('Authorization', `Bearer ${token}`);
  expect(me.body.data.roles.map((r) => r.code)).toEqual(['strapi-super-admin']);
});
