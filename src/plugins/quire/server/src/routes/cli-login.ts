import { RATE_LIMIT_HEADERS } from '#kernel/rate-limit';
import { loginCompleteInput, loginRequestInput } from '../schemas/inputs/cli-login';
import { keyIssued, loginRequested } from '../schemas/responses';
import { route } from './route';

/** How polling POST /api/cli/login-complete ends, besides with a key (docs/api.md, "CLI login"). */
const POLL_ERRORS = [
  { code: 'authorization-pending', status: 400 },
  { code: 'access-denied', status: 403 },
  'not-found',
  { code: 'expired-token', status: 410 },
  { code: 'slow-down', status: 429 },
  'rate-limited',
];

// The two routes by which a credential is obtained take none (CONTRACT §2): root routes, so no
// users-permissions action stands for them on the role page.
export const cliLoginRoutes = route('cliLogin', 'CLI login', {
  request: {
    method: 'POST',
    path: '/api/cli/login-request',
    summary: 'Start a CLI login (device flow)',
    description: 'A person approves it on the page at verificationUrl; the device polls login-complete.',
    credentials: [],
    body: loginRequestInput,
    responses: { 200: loginRequested },
    responseHeaders: RATE_LIMIT_HEADERS,
    errors: ['rate-limited'],
  },
  complete: {
    method: 'POST',
    path: '/api/cli/login-complete',
    summary: 'Poll a CLI login: the API key once approved',
    credentials: [],
    body: loginCompleteInput,
    responses: { 200: keyIssued },
    responseHeaders: RATE_LIMIT_HEADERS,
    errors: POLL_ERRORS,
  },
});
