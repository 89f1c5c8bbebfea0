import cliLogin from './cli-login';
import keys from './keys';

export default { cliLogin, keys };
