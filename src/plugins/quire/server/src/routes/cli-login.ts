import { route } from './define';

// The two routes by which a credential is obtained take none (CONTRACT §2).
export default [
  route('POST', '/cli/login-request', 'cliLogin.request', { authenticated: false }),
  route('POST', '/cli/login-complete', 'cliLogin.complete', { authenticated: false }),
];
