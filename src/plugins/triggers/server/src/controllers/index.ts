import instances from './instances';
import organizations from './organizations';
import trigger from './trigger';

export default { instances, organizations, trigger };
