import authenticate from './authenticate';
import envelope from './envelope';

export default { authenticate, envelope };
