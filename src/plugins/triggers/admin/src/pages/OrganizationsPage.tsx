/**
 * /admin/plugins/triggers: the organizations of every user (name, owner, process instances,
 * organization keys), searchable by name, paged; admins who manage create them for a user.
 * Each opens its page (keys, instances), and each instance its trigger panel.
 */
import { Link, Typography } from '@strapi/design-system';
import { NavLink, useNavigate } from 'react-router-dom';
import { CreateOrganization } from '../components/CreateOrganization';
import { Layouts, Page, SearchInput, useQueryParams } from '@strapi/strapi/admin';
import type * as React from 'react';
import { useIntl } from 'react-intl';
import { CardDetails, CellText, ListView, type ListColumn } from '#kernel/admin-ui/list-view';
import { searchText } from '#kernel/admin-ui/query';
import { UserName } from '#kernel/admin-ui/user-name';
import { useAllowed } from '#kernel/admin-ui/use-permissions';
import type { AdminOrganization } from '../api';
import { useOrganizationList } from '../api/organizations';
import { PERMISSIONS } from '../permissions';
import { t } from '../pluginId';

interface ListQuery {
  page?: string;
  pageSize?: string;
  _q?: string;
}

export const OrganizationsPage = () => {
  const { formatMessage, formatNumber, formatDate } = useIntl();
  const [{ query }] = useQueryParams<ListQuery>();
  const params = { page: query.page ?? '1', pageSize: query.pageSize ?? '10', q: searchText(query._q) };
  const navigate = useNavigate();
  const canManage = useAllowed(PERMISSIONS.manage);
  const { data, error, isLoading } = useOrganizationList(params);
  const organizations = data?.data ?? [];
  const pagination = data?.meta.pagination;

  if (error && !data) return <Page.Error />;

  const columns: ListColumn[] = [
    { name: 'name', label: formatMessage({ id: t('organizations.column.name'), defaultMessage: 'Name' }), maxWidth: '28rem' },
    { name: 'owner', label: formatMessage({ id: t('organizations.column.owner'), defaultMessage: 'Owner' }) },
    { name: 'instances', label: formatMessage({ id: t('organizations.column.instances'), defaultMessage: 'Instances' }) },
    { name: 'keys', label: formatMessage({ id: t('organizations.column.keys'), defaultMessage: 'Keys' }) },
    { name: 'createdAt', label: formatMessage({ id: t('organizations.column.createdAt'), defaultMessage: 'Created' }) },
  ];
  const title = formatMessage({ id: t('organizations.title'), defaultMessage: 'Organizations' });
  const deletedUser = formatMessage({ id: t('organizations.owner.deleted'), defaultMessage: 'Deleted user' });
  const empty = params.q
    ? formatMessage({ id: t('organizations.empty'), defaultMessage: 'No organization matches this search' })
    : canManage
      ? formatMessage({ id: t('organizations.empty.none'), defaultMessage: 'No organizations yet. Create one for a user with Create organization above.' })
      : formatMessage({ id: t('organizations.empty.none.readOnly'), defaultMessage: 'No organizations yet. They appear here once a user or an admin who manages Triggers creates one.' });

  return (
    <Page.Main aria-busy={isLoading}>
      <Page.Title>{`Triggers - ${title}`}</Page.Title>
      <Layouts.Header
        title={title}
        primaryAction={canManage ? <CreateOrganization onCreated={(organization) => navigate(`organizations/${organization.id}`)} /> : undefined}
        subtitle={
          pagination
            ? params.q
              ? formatMessage(
                  {
                    id: t('organizations.subtitle.filtered'),
                    defaultMessage: '{total, plural, =0 {No organization matches} one {# organization matches} other {# organizations match}} the search',
                  },
                  { total: pagination.total },
                )
              : formatMessage(
                  {
                    id: t('organizations.subtitle'),
                    defaultMessage:
                      '{total, plural, =0 {No organizations yet} one {One organization, with its process instances and keys} other {# organizations, with their process instances and keys}}',
                  },
                  { total: pagination.total },
                )
            : undefined
        }
      />
      <Layouts.Action
        startActions={
          <SearchInput
            label={formatMessage({ id: t('organizations.search'), defaultMessage: 'Search organizations by name' })}
            placeholder={formatMessage({ id: t('organizations.search.placeholder'), defaultMessage: 'Name contains…' })}
          />
        }
      />
      <Layouts.Content>
        <ListView
          label={title}
          columns={columns}
          rows={organizations}
          isLoading={isLoading && !data}
          empty={empty}
          pagination={pagination}
          rowProps={(organization) => ({ 'data-organization': organization.id, cursor: 'pointer', onClick: () => navigate(`organizations/${organization.id}`) })}
          renderCells={(organization) => [
            <Name id={organization.id}>{organization.name}</Name>,
            <UserName user={organization.owner} deleted={deletedUser} />,
            <CellText>{formatNumber(organization.instances)}</CellText>,
            <CellText>{formatNumber(organization.keys)}</CellText>,
            <CellText>
              <time dateTime={organization.createdAt}>{formatDate(organization.createdAt, { dateStyle: 'medium' })}</time>
            </CellText>,
          ]}
          renderCard={(organization) => (
            <>
              <Name id={organization.id}>{organization.name}</Name>
              <UserName user={organization.owner} deleted={deletedUser} />
              <CardDetails>
                {formatMessage(
                  {
                    id: t('organizations.card.details'),
                    defaultMessage: '{instances, plural, one {# instance} other {# instances}} · {keys, plural, one {# key} other {# keys}} · created {createdAt}',
                  },
                  { instances: organization.instances, keys: organization.keys, createdAt: formatDate(organization.createdAt, { dateStyle: 'medium' }) },
                )}
              </CardDetails>
            </>
          )}
        />
      </Layouts.Content>
    </Page.Main>
  );
};


/** The organization's name, a link to its page. */
const Name = ({ id, children }: { id: string; children: string }) => (
  <Link tag={NavLink} to={`organizations/${id}`} onClick={(event: React.MouseEvent) => event.stopPropagation()}>
    <Typography fontWeight="semiBold" textColor="neutral800" style={{ overflowWrap: 'anywhere' }}>
      {children}
    </Typography>
  </Link>
);
