import actions from './actions';
import callbacks from './callbacks';
import adminOrganizations from './admin-organizations';
import adminTriggers from './admin-triggers';
import executions from './executions';
import instances from './instances';
import organizations from './organizations';
import runner from './runner';
import vault from './vault';
import workflows from './workflows';

export default { actions, adminOrganizations, adminTriggers, callbacks, executions, instances, organizations, runner, vault, workflows };
