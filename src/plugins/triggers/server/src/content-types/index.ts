import execution from './execution/schema.json';
import organization from './organization/schema.json';
import organizationKey from './organization-key/schema.json';
import processInstance from './process-instance/schema.json';
import workflow from './workflow/schema.json';

export default {
  organization: { schema: organization },
  'organization-key': { schema: organizationKey },
  'process-instance': { schema: processInstance },
  workflow: { schema: workflow },
  execution: { schema: execution },
};
