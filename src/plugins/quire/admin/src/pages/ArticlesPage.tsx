/**
 * /admin/plugins/quire: the articles of every user (CONTRACT 18), searchable by title,
 * filterable by owner and status, paged. The search, filters and page live in the URL, so a
 * list can be reloaded, shared and navigated back to.
 */
import { Badge, Box, Button, Combobox, ComboboxOption, Flex, Link, LinkButton, SingleSelect, SingleSelectOption, Typography } from '@strapi/design-system';
import { Message, Trash } from '@strapi/icons';
import { Layouts, Page, SearchInput, useDebounce, useIsMobile, useQueryParams } from '@strapi/strapi/admin';
import * as React from 'react';
import { useIntl } from 'react-intl';
import { NavLink, useNavigate } from 'react-router-dom';
import { CardDetails, CellText, ListView, type ListColumn } from '#kernel/admin-ui/list-view';
import { searchText } from '#kernel/admin-ui/query';
import { UserName } from '#kernel/admin-ui/user-name';
import { usePermissions } from '#kernel/admin-ui/use-permissions';
import { useArticleList, useOwners } from '../api/articles';
import type { AdminArticle } from '../api/schema-types';
import { ArticleActions, ChangedBadge, NewArticleButton } from '../components/ArticleManagement';
import { StatusBadge } from '../components/StatusBadge';
import { PERMISSIONS } from '../permissions';
import { t } from '../pluginId';

interface ListQuery {
  page?: string;
  pageSize?: string;
  _q?: string;
  status?: string;
  owner?: string;
}

const STATUSES = ['draft', 'published'] as const;

export const ArticlesPage = () => {
  const { formatMessage, formatNumber, formatDate } = useIntl();
  const navigate = useNavigate();
  const [searchKey, setSearchKey] = React.useState(0);
  const [{ query }, setQuery] = useQueryParams<ListQuery>();
  const params = {
    page: query.page ?? '1',
    pageSize: query.pageSize ?? '10',
    q: searchText(query._q),
    status: query.status || undefined,
    owner: query.owner || undefined,
  };
  const { data, error, isLoading, reload } = useArticleList(params);
  const { canEdit, canDelete } = usePermissions(PERMISSIONS.edit, PERMISSIONS.delete);
  const articles = data?.data ?? [];
  const pagination = data?.meta.pagination;
  const filtered = Boolean(params.q || params.status || params.owner);
  const setFilter = (name: 'status' | 'owner', value: string | undefined) =>
    setQuery({ [name]: value, page: '1' } as ListQuery, value ? 'push' : 'remove');

  if (error && !data) return <Page.Error />;

  const columns: ListColumn[] = [
    { name: 'title', label: formatMessage({ id: t('articles.column.title'), defaultMessage: 'Title' }), maxWidth: '28rem' },
    { name: 'owner', label: formatMessage({ id: t('articles.column.owner'), defaultMessage: 'Owner' }) },
    { name: 'status', label: formatMessage({ id: t('articles.column.status'), defaultMessage: 'Status' }) },
    { name: 'words', label: formatMessage({ id: t('articles.column.words'), defaultMessage: 'Words' }) },
    { name: 'sections', label: formatMessage({ id: t('articles.column.sections'), defaultMessage: 'Sections' }) },
    { name: 'openThreads', label: formatMessage({ id: t('articles.column.openThreads'), defaultMessage: 'Open threads' }) },
    { name: 'updatedAt', label: formatMessage({ id: t('articles.column.updatedAt'), defaultMessage: 'Last update' }) },
    ...(canEdit || canDelete ? [{ name: 'actions', label: formatMessage({ id: t('articles.column.actions'), defaultMessage: 'Actions' }) }] : []),
  ];
  const actions = (article: AdminArticle) => (
    <ArticleActions article={article} canEdit={canEdit} canDelete={canDelete} compact onRenamed={reload} onDeleted={reload} />
  );
  const title = formatMessage({ id: t('articles.title'), defaultMessage: 'Articles' });
  const deletedUser = formatMessage({ id: t('articles.owner.deleted'), defaultMessage: 'Deleted user' });
  const empty = filtered
    ? formatMessage({ id: t('articles.empty'), defaultMessage: 'No article matches these filters' })
    : formatMessage({ id: t('articles.empty.none'), defaultMessage: 'No articles yet: create one with New article, or let agents create them through the API, the CLI or MCP' });

  return (
    <Page.Main aria-busy={isLoading}>
      <Page.Title>{`Quire - ${title}`}</Page.Title>
      <Layouts.Header
        title={title}
        subtitle={
          pagination
            ? filtered
              ? formatMessage(
                  {
                    id: t('articles.subtitle.filtered'),
                    defaultMessage: '{total, plural, =0 {No article matches} one {# article matches} other {# articles match}} the search and filters',
                  },
                  { total: pagination.total },
                )
              : formatMessage(
                  {
                    id: t('articles.subtitle'),
                    defaultMessage:
                      '{total, plural, =0 {No articles yet} one {# article} other {# articles}}, by every user, the most recently updated first',
                  },
                  { total: pagination.total },
                )
            : undefined
        }
        primaryAction={canEdit ? <NewArticleButton onCreated={(article) => navigate(`articles/${article.id}`)} /> : undefined}
        secondaryAction={
          <LinkButton tag={NavLink} to="trash" variant="tertiary" startIcon={<Trash />}>
            {formatMessage({ id: t('trash.link'), defaultMessage: 'Trash' })}
          </LinkButton>
        }
      />
      <Layouts.Action
        startActions={
          <Flex gap={2} wrap="wrap" alignItems="center">
            <SearchInput
              key={searchKey}
              label={formatMessage({ id: t('articles.search'), defaultMessage: 'Search articles by title' })}
              placeholder={formatMessage({ id: t('articles.search.placeholder'), defaultMessage: 'Title contains…' })}
            />
            <StatusFilter value={params.status} onChange={(value) => setFilter('status', value)} />
            <OwnerFilter value={params.owner} rows={articles} onChange={(value) => setFilter('owner', value)} />
            {filtered ? (
              <Button
                variant="tertiary"
                size="S"
                onClick={() => {
                  setQuery({ _q: '', status: '', owner: '', page: '1' } as ListQuery, 'remove');
                  setSearchKey((n) => n + 1); // the search box keeps its own text: start it afresh
                }}
              >
                {formatMessage({ id: t('articles.filter.clear'), defaultMessage: 'Clear filters' })}
              </Button>
            ) : null}
          </Flex>
        }
      />
      <Layouts.Content>
        <ListView
          label={title}
          columns={columns}
          rows={articles}
          isLoading={isLoading && !data}
          empty={empty}
          pagination={pagination}
          rowProps={(article) => ({ 'data-article': article.id, cursor: 'pointer', onClick: () => navigate(`articles/${article.id}`) })}
          renderCells={(article) => [
            <ArticleLink article={article} />,
            <UserName user={article.owner} deleted={deletedUser} />,
            <Flex gap={1} wrap="wrap">
              <StatusBadge status={article.status} />
              <ChangedBadge article={article} />
            </Flex>,
            <CellText>{formatNumber(article.words)}</CellText>,
            <CellText>{formatNumber(article.sections)}</CellText>,
            <OpenThreads article={article} zero />,
            <CellText>
              <time dateTime={article.updatedAt}>{formatDate(article.updatedAt, { dateStyle: 'medium', timeStyle: 'short' })}</time>
            </CellText>,
            ...(canEdit || canDelete ? [actions(article)] : []),
          ]}
          renderCard={(article) => (
            <>
              <Flex justifyContent="space-between" alignItems="flex-start" gap={2} width="100%">
                <ArticleLink article={article} />
                <Flex gap={1} wrap="wrap">
                  <StatusBadge status={article.status} />
                  <ChangedBadge article={article} />
                  <OpenThreads article={article} />
                </Flex>
              </Flex>
              <UserName user={article.owner} deleted={deletedUser} />
              <CardDetails>
                {formatMessage(
                  {
                    id: t('articles.card.details'),
                    defaultMessage: '{words, plural, one {# word} other {# words}} · {sections, plural, one {# section} other {# sections}} · updated {updatedAt}',
                  },
                  { words: article.words, sections: article.sections, updatedAt: formatDate(article.updatedAt, { dateStyle: 'medium', timeStyle: 'short' }) },
                )}
              </CardDetails>
              {canEdit || canDelete ? actions(article) : null}
            </>
          )}
        />
      </Layouts.Content>
    </Page.Main>
  );
};

/**
 * How many of the article's threads are open: a badge when any is (the comments waiting for an
 * answer stand out in the list), else a plain 0 in the table (`zero`) or nothing on a card.
 */
const OpenThreads = ({ article, zero = false }: { article: AdminArticle; zero?: boolean }) => {
  const { formatMessage, formatNumber } = useIntl();
  const count = article.openThreads;
  if (!count) {
    return zero ? (
      <span data-open-threads="0">
        <CellText>{formatNumber(0)}</CellText>
      </span>
    ) : null;
  }
  const label = formatMessage(
    { id: t('articles.openThreads'), defaultMessage: '{count, plural, one {# open thread} other {# open threads}}' },
    { count },
  );
  return (
    <Badge backgroundColor="secondary100" textColor="secondary700" data-open-threads={count} title={label} aria-label={label}>
      <Flex gap={1} alignItems="center" tag="span">
        <Message aria-hidden width="1.2rem" height="1.2rem" />
        {zero ? formatNumber(count) : label}
      </Flex>
    </Badge>
  );
};

/** The article's title, a link to its page (the canvas). */
const ArticleLink = ({ article }: { article: AdminArticle }) => {
  return (
    <Link
      tag={NavLink}
      to={`articles/${article.id}`}
      onClick={(event: React.MouseEvent) => event.stopPropagation()}
    >
      <Typography fontWeight="semiBold" textColor="neutral800" style={{ overflowWrap: 'anywhere' }}>
        {article.title}
      </Typography>
    </Link>
  );
};


const StatusFilter = ({ value, onChange }: { value?: string; onChange: (value: string | undefined) => void }) => {
  const { formatMessage } = useIntl();
  const isMobile = useIsMobile();
  const label = formatMessage({ id: t('articles.filter.status'), defaultMessage: 'Status' });
  return (
    <Box minWidth="16rem" width={isMobile ? '100%' : undefined}>
      <SingleSelect
        aria-label={label}
        size="S"
        placeholder={formatMessage({ id: t('articles.filter.status.all'), defaultMessage: 'All statuses' })}
        value={value ?? null}
        onChange={(next) => onChange(String(next))}
        onClear={value ? () => onChange(undefined) : undefined}
        clearLabel={formatMessage({ id: t('articles.filter.status.clear'), defaultMessage: 'Clear the status filter' })}
      >
        {STATUSES.map((status) => (
          <SingleSelectOption key={status} value={status}>
            {formatMessage({ id: t(`status.${status}`), defaultMessage: status })}
          </SingleSelectOption>
        ))}
      </SingleSelect>
    </Box>
  );
};

/**
 * The owner filter: users who own articles, searched on the server as one types (username or
 * email). The selected owner keeps its name even when the search no longer lists it.
 */
const OwnerFilter = ({ value, rows, onChange }: { value?: string; rows: AdminArticle[]; onChange: (value: string | undefined) => void }) => {
  const { formatMessage } = useIntl();
  const [typed, setTyped] = React.useState('');
  const search = useDebounce(typed, 250);
  const { data, isLoading } = useOwners(search);
  const owners = data?.data ?? [];
  const selected = owners.find((o) => String(o.id) === value) ?? rows.find((r) => r.owner && String(r.owner.id) === value)?.owner;
  const options = selected && !owners.some((o) => o.id === selected.id) ? [selected, ...owners] : owners;
  const isMobile = useIsMobile();
  const label = formatMessage({ id: t('articles.filter.owner'), defaultMessage: 'Owner' });
  return (
    <Box minWidth="20rem" width={isMobile ? '100%' : undefined}>
      <Combobox
        aria-label={label}
        size="S"
        placeholder={formatMessage({ id: t('articles.filter.owner.all'), defaultMessage: 'All owners' })}
        value={value ?? ''}
        loading={isLoading}
        autocomplete={{ type: 'list', filter: 'contains' }}
        onInputChange={(event) => setTyped(event.currentTarget.value)}
        onChange={(next) => onChange(next || undefined)}
        onClear={value ? () => onChange(undefined) : undefined}
        clearLabel={formatMessage({ id: t('articles.filter.owner.clear'), defaultMessage: 'Clear the owner filter' })}
      >
        <ComboboxOption value="me" textValue={formatMessage({ id: t('articles.filter.owner.mine'), defaultMessage: 'Mine' })}>
          {formatMessage({ id: t('articles.filter.owner.mine'), defaultMessage: 'Mine' })}
        </ComboboxOption>
        {options.map((owner) => (
          <ComboboxOption key={owner.id} value={String(owner.id)} textValue={`${owner.username} (${owner.email})`}>
            {`${owner.username} (${owner.email})`}
          </ComboboxOption>
        ))}
      </Combobox>
    </Box>
  );
};
