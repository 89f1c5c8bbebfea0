/**
 * The workflows of a trigger panel: each with its trigger URL, its skill (name, description,
 * input schema, a "try it" form), the four ways to call it as ready-to-copy samples, Send test (the real trigger route, with the instance key), edit and
 * delete; and the Create workflow button.
 */
import { Badge, Box, Button, Flex, Tabs, Typography } from '@strapi/design-system';
import { Pencil, Play, Plus } from '@strapi/icons';
import * as React from 'react';
import { useAdminMutation } from '#kernel/admin-ui/use-admin-mutation';
import { useAllowed } from '#kernel/admin-ui/use-permissions';
import type { AdminAction, AdminWorkflow } from '../api';
import { triggerFromPanel, useWorkflowsApi } from '../api/workflows';
import { useMessages } from '../messages';
import { PERMISSIONS } from '../permissions';
import { triggerExamples } from './examples';
import { useFetchKey } from './ApiAccess';
import { CodeSample, ConfirmButton, CopyButton, Mono, Section, Warning } from './secrets';
import { WorkflowForm } from './WorkflowForm';
import { SkillSection } from './Skill';

interface Props {
  instanceId: string;
  workflows: AdminWorkflow[];
  actions: AdminAction[];
  onChange: () => void;
  /** A test execution was started: show it. */
  onTested: (executionId: string) => void;
}

export const Workflows = ({ instanceId, workflows, actions, onChange, onTested }: Props) => {
  const { m } = useMessages();
  const canManage = useAllowed(PERMISSIONS.manage);
  const [creating, setCreating] = React.useState(false);
  return (
    <Section
      title={m('workflows.title', 'Workflows')}
      data-section="workflows"
      actions={
        canManage ? (
          <Button size="S" startIcon={<Plus />} onClick={() => setCreating(true)}>
            {m('workflows.create', 'Create workflow')}
          </Button>
        ) : null
      }
    >
      {workflows.length === 0 ? (
        <Typography textColor="neutral600" tag="p">
          {m('workflows.empty', 'No workflows yet: a workflow runs an action each time its trigger URL is called.')}
        </Typography>
      ) : (
        <Flex direction="column" alignItems="stretch" gap={4}>
          {workflows.map((workflow) => (
            <WorkflowCard key={workflow.id} instanceId={instanceId} workflow={workflow} actions={actions} onChange={onChange} onTested={onTested} />
          ))}
        </Flex>
      )}
      {creating ? <WorkflowForm instanceId={instanceId} actions={actions} open onOpenChange={setCreating} onSaved={onChange} /> : null}
    </Section>
  );
};

const WorkflowCard = ({ instanceId, workflow, actions, onChange, onTested }: { instanceId: string; workflow: AdminWorkflow; actions: AdminAction[]; onChange: () => void; onTested: (id: string) => void }) => {
  const { m, notify } = useMessages();
  const canManage = useAllowed(PERMISSIONS.manage);
  const { run } = useAdminMutation();
  const workflows = useWorkflowsApi(instanceId);
  const { get: getKey } = useFetchKey();
  const [editing, setEditing] = React.useState(false);
  const [testing, setTesting] = React.useState(false);
  const sample = actions.find((a) => a.name === workflow.action)?.inputExample ?? {};
  const examples = triggerExamples(workflow.triggerUrl, sample);
  const titles: Record<string, string> = {
    'api-key': m('examples.apiKey', 'X-API-Key'),
    'organization-key': m('examples.organizationKey', 'X-Process-Manager-Key'),
    query: m('examples.query', '?api_key='),
    signed: m('examples.signed', 'Signed (Node)'),
  };

  /** Calls the real trigger route from the browser, as any caller would, with the instance key. */
  const sendTest = async () => {
    setTesting(true);
    try {
      const key = await getKey(instanceId);
      if (!key) return;
      const { status, body } = await triggerFromPanel(instanceId, workflow.id, key, sample);
      if (status !== 202 || !body?.data) {
        notify.danger(m('workflows.test.failed', 'The trigger answered {status}: {message}', { status, message: body?.error?.message ?? '' }));
        return;
      }
      notify.success(m('workflows.test.sent', 'Test sent: execution {id}', { id: body.data.executionId }));
      onTested(body.data.executionId);
    } finally {
      setTesting(false);
    }
  };

  return (
    <Box padding={4} hasRadius borderColor="neutral200" borderStyle="solid" borderWidth="1px" data-workflow={workflow.id} tag="article" aria-label={workflow.name}>
      <Flex justifyContent="space-between" alignItems="flex-start" gap={2} wrap="wrap">
        <Box>
          <Typography tag="h3" variant="epsilon" fontWeight="bold">
            {workflow.name}
          </Typography>
          <Flex gap={2} paddingTop={1} wrap="wrap">
            <Badge>{workflow.action}</Badge>
            <Badge variant={workflow.enabled ? 'success' : 'neutral'}>{workflow.enabled ? m('workflows.enabled', 'Enabled') : m('workflows.disabled', 'Disabled')}</Badge>
            {workflow.signing ? (
              <Badge variant="secondary">{m('workflows.signing', '{count, plural, one {# signing secret} other {# signing secrets}}', { count: workflow.signingSecrets.length })}</Badge>
            ) : null}
          </Flex>
        </Box>
        {canManage ? (
          <Flex gap={2} wrap="wrap">
            <Button size="S" startIcon={<Play />} loading={testing} disabled={!workflow.enabled} onClick={sendTest}>
              {m('workflows.test', 'Send test')}
            </Button>
            <Button size="S" variant="secondary" startIcon={<Pencil />} onClick={() => setEditing(true)}>
              {m('workflows.edit', 'Edit')}
            </Button>
            <ConfirmButton
              label={m('workflows.delete', 'Delete')}
              title={m('workflows.delete.title', 'Delete this workflow?')}
              body={m('workflows.delete.body', 'Its trigger URL stops working; its executions stay listed.')}
              confirm={m('workflows.delete', 'Delete')}
              onConfirm={async () => {
                await run(() => workflows.remove(workflow.id));
                onChange();
              }}
            />
          </Flex>
        ) : null}
      </Flex>
      <Box paddingTop={3}>
        <Flex justifyContent="space-between" alignItems="center" gap={2}>
          <Typography variant="sigma" textColor="neutral600">
            {m('workflows.url', 'Trigger URL')}
          </Typography>
          <CopyButton value={workflow.triggerUrl} label={m('workflows.url.copy', 'Copy URL')} />
        </Flex>
        <Mono data-trigger-url="">{workflow.triggerUrl}</Mono>
      </Box>
      <SkillSection instanceId={instanceId} workflow={workflow} onTested={onTested} />
      {workflow.callbackUrl ? (
        <Box paddingTop={3}>
          <Typography variant="sigma" textColor="neutral600">
            {m('workflows.callback', 'Callback URL')}
          </Typography>
          <Mono data-callback-url="">{workflow.callbackUrl}</Mono>
        </Box>
      ) : null}
      {Object.keys(workflow.config).length ? (
        <Box paddingTop={3}>
          <Typography variant="sigma" textColor="neutral600">
            {m('workflows.config', 'Config')}
          </Typography>
          <Mono>{JSON.stringify(workflow.config)}</Mono>
        </Box>
      ) : null}
      <Box paddingTop={3}>
        <Tabs.Root defaultValue="api-key" variant="simple">
          <Box style={{ overflowX: 'auto' }}>
            <Tabs.List aria-label={m('examples.label', 'How to call it')}>
              {examples.map((example) => (
                <Tabs.Trigger key={example.id} value={example.id}>
                  {titles[example.id]}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
          </Box>
          {examples.map((example) => (
            <Tabs.Content key={example.id} value={example.id}>
              <Box paddingTop={3}>
                <CodeSample title={titles[example.id]} code={example.code} data-example={example.id}>
                  <Box paddingBottom={2}>
                    {example.id === 'query' ? (
                      <Warning>
                        {m(
                          'examples.query.warning',
                          'Only for callers that cannot set headers: a key in the URL can end up in the logs of proxies, browsers and the caller\'s own tools (Quire removes it from its own logs). Prefer X-API-Key.',
                        )}
                      </Warning>
                    ) : (
                      <Typography variant="pi" textColor="neutral600" tag="p">
                        {example.id === 'organization-key'
                          ? m('examples.organizationKey.about', 'With an organization key (ORG_KEY), from the organization\'s page.')
                          : example.id === 'signed'
                            ? m('examples.signed.about', 'Signed with one of the workflow\'s signing secrets (WEBHOOK_SECRET), Standard Webhooks: no key is sent.')
                            : m('examples.apiKey.about', 'With the instance key (INSTANCE_KEY), from Public API Access above.')}
                      </Typography>
                    )}
                  </Box>
                </CodeSample>
              </Box>
            </Tabs.Content>
          ))}
        </Tabs.Root>
      </Box>
      {editing ? <WorkflowForm instanceId={instanceId} actions={actions} workflow={workflow} open onOpenChange={setEditing} onSaved={onChange} /> : null}
    </Box>
  );
};
