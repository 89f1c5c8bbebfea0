/**
 * /admin/plugins/triggers/organizations/{id}: an organization, its owner, its organization keys
 * (created with the secret shown once, listed without secrets, revoked after a confirmation)
 * and its process instances (created here, each opening its trigger panel).
 */
import { Box, Button, EmptyStateLayout, Field, Flex, Link, Modal, TextInput, Typography } from '@strapi/design-system';
import { Plus } from '@strapi/icons';
import { BackButton, Layouts, Page, Table, useIsMobile } from '@strapi/strapi/admin';
import * as React from 'react';
import { useIntl } from 'react-intl';
import { NavLink, useNavigate, useParams } from 'react-router-dom';
import { useAdminMutation } from '#kernel/admin-ui/use-admin-mutation';
import { useAllowed } from '#kernel/admin-ui/use-permissions';
import type { AdminInstanceSummary, AdminOrganizationDetail } from '../api';
import { useOrganization, useOrganizationsApi } from '../api/organizations';
import { ConfirmButton, Mono, SecretOnceDialog, Section } from '../components/secrets';
import { McpConfiguration } from '../components/Skill';
import { useMessages } from '../messages';
import { PERMISSIONS } from '../permissions';

export const OrganizationPage = () => {
  const { orgId } = useParams<{ orgId: string }>();
  const { m } = useMessages();
  const { data, error, reload, isLoading } = useOrganization(orgId);
  const organization = data?.data;

  if (error && !data) return <Page.Error />;
  if (!organization) return <Page.Loading />;

  const owner = organization.owner ? `${organization.owner.username} (${organization.owner.email})` : m('organizations.owner.deleted', 'Deleted user');
  return (
    <Page.Main aria-busy={isLoading}>
      <Page.Title>{`Triggers - ${organization.name}`}</Page.Title>
      <Layouts.Header
        navigationAction={<BackButton fallback="/plugins/triggers" />}
        title={organization.name}
        subtitle={m('organization.subtitle', 'Owned by {owner}', { owner })}
      />
      <Layouts.Content>
        <Flex direction="column" alignItems="stretch" gap={6}>
          <Instances organization={organization} onChange={reload} />
          <Keys organization={organization} onChange={reload} />
          <Section title={m('mcp.section', 'Agents (MCP)')} data-section="mcp">
            <McpConfiguration mcpUrl={organization.mcpUrl} organizationName={organization.name} />
          </Section>
        </Flex>
      </Layouts.Content>
    </Page.Main>
  );
};

const Instances = ({ organization, onChange }: { organization: AdminOrganizationDetail; onChange: () => void }) => {
  const { m } = useMessages();
  const { formatDate } = useIntl();
  const isMobile = useIsMobile();
  const navigate = useNavigate();
  const canManage = useAllowed(PERMISSIONS.manage);
  const title = m('instances.title', 'Process instances');
  return (
    <Section title={title} actions={canManage ? <CreateInstance organizationId={organization.id} onCreated={(instance) => navigate(`/plugins/triggers/instances/${instance.id}`)} /> : null}>
      {organization.instances.length === 0 ? (
        <EmptyStateLayout content={m('instances.empty', 'No process instances yet')} />
      ) : isMobile ? (
        <Flex tag="ul" direction="column" alignItems="stretch" gap={3}>
          {organization.instances.map((instance) => (
            <Box tag="li" key={instance.id} data-instance={instance.id} padding={3} hasRadius borderColor="neutral200" borderStyle="solid" borderWidth="1px">
              <InstanceLink instance={instance} />
              <Typography variant="pi" textColor="neutral600" tag="p">
                {m('instances.card', '{workflows, plural, one {# workflow} other {# workflows}} · key {key}', { workflows: instance.workflows, key: instance.keyHint })}
              </Typography>
            </Box>
          ))}
        </Flex>
      ) : (
        <Table.Root rows={organization.instances} headers={[]}>
          <Table.Content>
            <Table.Head>
              <Table.HeaderCell name="name" label={m('instances.column.name', 'Name')} />
              <Table.HeaderCell name="workflows" label={m('instances.column.workflows', 'Workflows')} />
              <Table.HeaderCell name="key" label={m('instances.column.key', 'Key')} />
              <Table.HeaderCell name="createdAt" label={m('instances.column.createdAt', 'Created')} />
            </Table.Head>
            <Table.Body>
              {organization.instances.map((instance) => (
                <Table.Row key={instance.id} data-instance={instance.id} cursor="pointer" onClick={() => navigate(`/plugins/triggers/instances/${instance.id}`)}>
                  <Table.Cell>
                    <InstanceLink instance={instance} />
                  </Table.Cell>
                  <Table.Cell>
                    <Typography>{instance.workflows}</Typography>
                  </Table.Cell>
                  <Table.Cell>
                    <Typography style={{ fontFamily: 'ui-monospace, monospace' }}>{instance.keyHint}</Typography>
                  </Table.Cell>
                  <Table.Cell>
                    <Typography>{formatDate(instance.createdAt, { dateStyle: 'medium' })}</Typography>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Content>
        </Table.Root>
      )}
    </Section>
  );
};

const InstanceLink = ({ instance }: { instance: AdminInstanceSummary }) => (
  <Link tag={NavLink} to={`/plugins/triggers/instances/${instance.id}`} onClick={(event: React.MouseEvent) => event.stopPropagation()}>
    <Typography fontWeight="semiBold" textColor="neutral800" style={{ overflowWrap: 'anywhere' }}>
      {instance.name}
    </Typography>
  </Link>
);

const CreateInstance = ({ organizationId, onCreated }: { organizationId: string; onCreated: (instance: AdminInstanceSummary) => void }) => {
  const { m } = useMessages();
  const { run, busy } = useAdminMutation();
  const organizations = useOrganizationsApi();
  const [open, setOpen] = React.useState(false);
  const [name, setName] = React.useState('');
  const [error, setError] = React.useState<string | undefined>();
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const result = await run(() => organizations.createInstance(organizationId, name), { quiet: true });
    if (result.error) return setError(result.error);
    setOpen(false);
    onCreated(result.data!);
  };
  return (
    <Modal.Root open={open} onOpenChange={setOpen}>
      <Modal.Trigger>
        <Button startIcon={<Plus />} size="S">
          {m('instances.create', 'Create instance')}
        </Button>
      </Modal.Trigger>
      <Modal.Content>
        <form onSubmit={submit}>
          <Modal.Header>
            <Modal.Title>{m('instances.create.title', 'Create a process instance')}</Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <Field.Root name="name" required error={error} hint={m('instances.create.hint', 'It gets its own key (ck_…) for its trigger URLs.')}>
              <Field.Label>{m('instances.create.name', 'Name')}</Field.Label>
              <TextInput value={name} onChange={(e: React.ChangeEvent<HTMLInputElement>) => setName(e.target.value)} />
              <Field.Hint />
              <Field.Error />
            </Field.Root>
          </Modal.Body>
          <Modal.Footer>
            <Modal.Close>
              <Button variant="tertiary">{m('cancel', 'Cancel')}</Button>
            </Modal.Close>
            <Button type="submit" loading={busy} disabled={!name.trim()}>
              {m('instances.create.submit', 'Create')}
            </Button>
          </Modal.Footer>
        </form>
      </Modal.Content>
    </Modal.Root>
  );
};

const Keys = ({ organization, onChange }: { organization: AdminOrganizationDetail; onChange: () => void }) => {
  const { m } = useMessages();
  const { formatDate } = useIntl();
  const canManage = useAllowed(PERMISSIONS.manage);
  const { run, busy } = useAdminMutation();
  const organizations = useOrganizationsApi();
  const [name, setName] = React.useState('');
  const [secret, setSecret] = React.useState<string | null>(null);

  const create = async (event: React.FormEvent) => {
    event.preventDefault();
    const result = await run(() => organizations.createKey(organization.id, name.trim() || undefined));
    if (result.data) {
      setSecret(result.data.secret);
      setName('');
      onChange();
    }
  };

  return (
    <Section title={m('keys.title', 'Organization keys')}>
      <Typography variant="omega" textColor="neutral600" tag="p">
        {m('keys.about', 'An organization key (cko_…) is sent as X-Process-Manager-Key: it triggers any workflow of any instance of this organization and manages its instances. Only its first characters are kept visible.')}
      </Typography>
      {canManage ? (
        <Box tag="form" paddingTop={4} paddingBottom={4} onSubmit={create}>
          <Flex gap={2} alignItems="flex-end" wrap="wrap">
            <Field.Root name="keyName" hint={m('keys.name.hint', 'Where it will be used, e.g. "deploy".')}>
              <Field.Label>{m('keys.name', 'Key name')}</Field.Label>
              <TextInput value={name} onChange={(e: React.ChangeEvent<HTMLInputElement>) => setName(e.target.value)} placeholder="deploy" />
            </Field.Root>
            <Button type="submit" startIcon={<Plus />} loading={busy}>
              {m('keys.create', 'Create key')}
            </Button>
          </Flex>
        </Box>
      ) : null}
      {organization.keys.length === 0 ? (
        <Typography textColor="neutral600" tag="p">
          {m('keys.empty', 'No organization keys.')}
        </Typography>
      ) : (
        <Flex tag="ul" direction="column" alignItems="stretch" gap={2}>
          {organization.keys.map((key) => (
            <Flex
              tag="li"
              key={key.id}
              data-key={key.id}
              justifyContent="space-between"
              alignItems="center"
              gap={3}
              wrap="wrap"
              padding={3}
              hasRadius
              borderColor="neutral200"
              borderStyle="solid"
              borderWidth="1px"
            >
              <Box>
                <Typography fontWeight="semiBold" tag="p">
                  {key.name}
                </Typography>
                <Mono>{`${key.prefix}…`}</Mono>
                <Typography variant="pi" textColor="neutral600" tag="p">
                  {m('keys.dates', 'Created {createdAt} · {lastUsed}', {
                    createdAt: formatDate(key.createdAt, { dateStyle: 'medium' }),
                    lastUsed: key.lastUsedAt
                      ? m('keys.lastUsed', 'last used {at}', { at: formatDate(key.lastUsedAt, { dateStyle: 'medium', timeStyle: 'short' }) })
                      : m('keys.neverUsed', 'never used'),
                  })}
                </Typography>
              </Box>
              {canManage ? (
                <ConfirmButton
                  label={m('keys.revoke', 'Revoke')}
                  title={m('keys.revoke.title', 'Revoke this key?')}
                  body={m('keys.revoke.body', 'Anything using the key "{name}" fails from now on. This cannot be undone.', { name: key.name })}
                  confirm={m('keys.revoke.confirm', 'Revoke')}
                  onConfirm={async () => {
                    await run(() => organizations.revokeKey(organization.id, key.id));
                    onChange();
                  }}
                />
              ) : null}
            </Flex>
          ))}
        </Flex>
      )}
      <SecretOnceDialog title={m('keys.created', 'Organization key created')} secret={secret} onClose={() => setSecret(null)} />
    </Section>
  );
};
