/** The server-rendered pages' forms: the CLI login approval page and the OAuth authorize page. */
import { z } from 'zod';

// The CLI login approval page's forms (application/x-www-form-urlencoded). The page reads them
// leniently (a missing field is empty) and answers every problem with a page.
const formField = (description: string) => z.string().optional().describe(description);
const csrf = formField('The form\'s CSRF token.');
const userCode = formField('The user code the CLI printed (XXXX-XXXX).');
export const loginPageQuery = z.object({ code: userCode });
export const signInForm = z.object({ csrf, code: userCode, identifier: formField('Username or email.'), password: formField('Password.') });
export const decisionForm = z.object({ csrf, code: userCode, decision: z.enum(['approve', 'deny']).optional() });
export const signOutForm = z.object({ csrf, code: userCode });
export const codeForm = z.object({ csrf, code: userCode });

// The OAuth authorize page's forms: the authorization request travels in `request`.
const requestForm = z.object({ csrf: z.string(), request: z.string().describe('The authorization request\'s query string.') });
export const oauthSignInForm = requestForm.extend({ identifier: z.string(), password: z.string() });
export const oauthDecisionForm = requestForm.extend({ decision: z.enum(['approve', 'deny']) });
