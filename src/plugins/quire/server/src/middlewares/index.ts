import authenticate from './authenticate';
import envelope from './envelope';
import uploadHeaders from './upload-headers';

export default { authenticate, envelope, uploadHeaders };
