import auth from './auth';
import keys from './keys';

export default { auth, keys };
