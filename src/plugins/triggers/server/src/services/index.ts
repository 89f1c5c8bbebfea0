import actions from './actions';
import callbacks from './callbacks';
import adminOrganizations from './admin-organizations';
import adminTriggers from './admin-triggers';
import executions from './executions';
import instances from './instances';
import organizations from './organizations';
import runner from './runner';
import skills from './skills';
import starts from './starts';
import vault from './vault';
import workflows from './workflows';

export default { actions, adminOrganizations, adminTriggers, callbacks, executions, instances, organizations, runner, skills, starts, vault, workflows };
