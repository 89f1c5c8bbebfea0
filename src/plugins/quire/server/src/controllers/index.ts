import keys from './keys';
import unfurl from './unfurl';
import upload from './upload';

export default { keys, upload, unfurl };
