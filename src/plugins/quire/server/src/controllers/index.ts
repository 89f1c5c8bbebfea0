import keys from './keys';

export default { keys };
