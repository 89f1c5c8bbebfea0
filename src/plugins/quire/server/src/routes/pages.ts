import { z } from 'zod';
import { content, empty, form, page, redirect } from '#kernel/routes';
import { PAGE_PATH } from '../pages/login-page';
import { codeForm, decisionForm, loginPageQuery, signInForm, signOutForm } from '../schemas/inputs/pages';
import { route } from './route';

/** The public copies of published articles: no credential; pages, not our JSON envelope. */
export const publicPageRoutes = route('publicPages', 'Public pages', {
  show: {
    method: 'GET',
    path: '/p/:name',
    summary: 'A published article: its page, or its Markdown (/p/{slug}.md)',
    credentials: [],
    params: z.object({ name: z.string().describe('The slug, or the slug followed by ".md" for the Markdown.') }),
    responses: {
      200: content(['text/html', 'text/markdown'], 'The published page, or its Markdown.'),
      304: empty('Not modified since the copy the client holds (If-None-Match, If-Modified-Since).'),
      404: content(['text/html', 'text/plain'], 'Nothing is published at this address.'),
      500: content(['text/html', 'text/plain'], 'Something went wrong on our side: try again in a moment.'),
    },
  },
});

/** Every problem of the approval page is a page that says what to do. */
const problemPages = {
  400: page('The form was incomplete, or the code is not valid.'),
  401: page('Wrong credentials, or not signed in.'),
  403: page('The form was stale or came from elsewhere, or the account may not sign in.'),
  409: page('The login was decided already or has expired.'),
  410: page('The code was used or has expired.'),
  429: page('Too many wrong codes or sign-in attempts: locked for a while.'),
  500: page('Something went wrong on our side.'),
};

/**
 * The CLI login approval page: a person signs in (users-permissions credentials; the session
 * cookie after that), checks the code and the device's name, and approves or denies.
 */
export const cliLoginPageRoutes = route('cliLoginPage', 'CLI login', {
  show: {
    method: 'GET',
    path: PAGE_PATH,
    summary: 'The approval page: sign in, enter the code, approve or deny',
    credentials: ['session'],
    auth: { optional: true },
    query: loginPageQuery,
    responses: { 200: page('Sign-in, code entry or confirmation.'), ...problemPages },
  },
  enter: {
    method: 'POST',
    path: PAGE_PATH,
    summary: 'Submit a code: the confirmation page (wrong codes count towards the lockout)',
    credentials: ['session'],
    auth: { optional: true },
    body: form(codeForm, 'The code form.'),
    responses: { 200: page('The confirmation page of the login the code names.'), ...problemPages },
  },
  signIn: {
    method: 'POST',
    path: `${PAGE_PATH}/session`,
    summary: 'Sign in on the approval page (sets the session cookie)',
    credentials: [],
    body: form(signInForm, 'The sign-in form.'),
    responses: { 303: redirect('Signed in: back to the page (Set-Cookie: quire_session).'), ...problemPages },
  },
  decide: {
    method: 'POST',
    path: `${PAGE_PATH}/decision`,
    summary: 'Approve or deny a login',
    credentials: ['session'],
    auth: { optional: true },
    body: form(decisionForm, 'The decision form.'),
    responses: { 200: page('The decision is recorded.'), ...problemPages },
  },
  signOut: {
    method: 'POST',
    path: `${PAGE_PATH}/sign-out`,
    summary: 'Sign out of the approval page',
    credentials: [],
    body: form(signOutForm, 'The sign-out form.'),
    responses: { 303: redirect('Signed out: back to the page.'), ...problemPages },
  },
});
