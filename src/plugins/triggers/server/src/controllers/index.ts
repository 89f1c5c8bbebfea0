import adminInstances from './admin-instances';
import adminOrganizations from './admin-organizations';
import instances from './instances';
import organizations from './organizations';
import skills from './skills';
import trigger from './trigger';

export default { adminInstances, adminOrganizations, instances, organizations, skills, trigger };
