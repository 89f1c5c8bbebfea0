/**
 * /admin/plugins/triggers/instances/{id}: a process instance's trigger panel: Public API
 * Access (its key), its workflows (trigger URLs, skills, samples, Send test), the organization's
 * MCP client configuration, and executions.
 */
import { Flex } from '@strapi/design-system';
import { BackButton, Layouts, Page } from '@strapi/strapi/admin';
import * as React from 'react';
import { useParams } from 'react-router-dom';
import { useActions, useInstance } from '../api/instances';
import { useWorkflowList } from '../api/workflows';
import { ApiAccess } from '../components/ApiAccess';
import { Executions } from '../components/Executions';
import { Workflows } from '../components/Workflows';
import { McpConfiguration } from '../components/Skill';
import { Section } from '../components/secrets';
import { useMessages } from '../messages';

export const InstancePage = () => {
  const { pid } = useParams<{ pid: string }>();
  const { m } = useMessages();
  const instance = useInstance(pid);
  const workflows = useWorkflowList(pid);
  const actions = useActions();
  const [opened, setOpened] = React.useState<string | null>(null);

  if (instance.error && !instance.data) return <Page.Error />;
  const current = instance.data?.data;
  if (!current || !workflows.data || !actions.data) return <Page.Loading />;

  const owner = current.owner ? current.owner.username : m('organizations.owner.deleted', 'Deleted user');
  return (
    <Page.Main>
      <Page.Title>{`Triggers - ${current.name}`}</Page.Title>
      <Layouts.Header
        navigationAction={<BackButton fallback={`/plugins/triggers/organizations/${current.organization.id}`} />}
        title={current.name}
        subtitle={m('instance.subtitle', 'Process instance of {organization}, owned by {owner}', { organization: current.organization.name, owner })}
      />
      <Layouts.Content>
        <Flex direction="column" alignItems="stretch" gap={6}>
          <ApiAccess instance={current} onRegenerated={instance.reload} />
          <Workflows
            instanceId={current.id}
            workflows={workflows.data.data}
            actions={actions.data.data}
            onChange={() => {
              workflows.reload();
              instance.reload();
            }}
            onTested={setOpened}
          />
          <Section title={m('mcp.section', 'Agents (MCP)')} data-section="mcp">
            <McpConfiguration mcpUrl={current.mcpUrl} organizationName={current.organization.name} />
          </Section>
          <Executions instanceId={current.id} workflows={workflows.data.data} opened={opened} onOpen={setOpened} />
        </Flex>
      </Layouts.Content>
    </Page.Main>
  );
};
