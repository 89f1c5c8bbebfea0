import actions from './actions';
import executions from './executions';
import gate from './gate';
import instances from './instances';
import organizations from './organizations';
import runner from './runner';
import vault from './vault';
import workflows from './workflows';

export default { actions, executions, gate, instances, organizations, runner, vault, workflows };
