/**
 * /admin/plugins/quire/trash: articles deleted in the last 30 days, most recently deleted first,
 * each restorable (with its owner, sections, notes and history) by a role holding Quire's
 * delete action; after 30 days they are purged.
 */
import { Button, Flex, Typography } from '@strapi/design-system';
import { ArrowClockwise } from '@strapi/icons';
import { BackButton, Layouts, Page, useQueryParams } from '@strapi/strapi/admin';
import * as React from 'react';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { CardDetails, CellText, ListView, type ListColumn } from '#kernel/admin-ui/list-view';
import { useAdminMutation } from '#kernel/admin-ui/use-admin-mutation';
import { usePermissions } from '#kernel/admin-ui/use-permissions';
import { UserName } from '#kernel/admin-ui/user-name';
import type { AdminTrashedArticle } from '../api/schema-types';
import { useTrashApi, useTrashedArticles } from '../api/trash';
import { useMessages } from '../messages';
import { PERMISSIONS } from '../permissions';

export const TrashPage = () => {
  const { formatDate, formatNumber } = useIntl();
  const { m } = useMessages();
  const navigate = useNavigate();
  const trash = useTrashApi();
  const { run } = useAdminMutation();
  const { canDelete } = usePermissions(PERMISSIONS.delete);
  const [{ query }] = useQueryParams<{ page?: string; pageSize?: string }>();
  const { data, error, isLoading, reload } = useTrashedArticles({ page: query.page ?? '1', pageSize: query.pageSize ?? '10' });
  const [busy, setBusy] = React.useState<string | null>(null);
  if (error && !data) return <Page.Error />;
  const rows = data?.data ?? [];
  const when = (iso: string) => formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' });
  const deletedUser = m('articles.owner.deleted', 'Deleted user');

  const restore = async (article: AdminTrashedArticle) => {
    setBusy(article.id);
    const { data: restored } = await run(() => trash.restoreArticle(article.id), { success: m('trash.restored', '"{title}" is back, as a draft', { title: article.title }) });
    setBusy(null);
    if (restored) reload();
  };

  const restoreButton = (article: AdminTrashedArticle) =>
    canDelete ? (
      <Button
        size="S"
        variant="secondary"
        startIcon={<ArrowClockwise />}
        loading={busy === article.id}
        onClick={() => restore(article)}
        aria-label={m('trash.restore.label', 'Restore "{title}"', { title: article.title })}
      >
        {m('trash.restore', 'Restore')}
      </Button>
    ) : null;

  const columns: ListColumn[] = [
    { name: 'title', label: m('articles.column.title', 'Title'), maxWidth: '28rem' },
    { name: 'owner', label: m('articles.column.owner', 'Owner') },
    { name: 'words', label: m('articles.column.words', 'Words') },
    { name: 'deletedAt', label: m('trash.column.deleted', 'Deleted') },
    { name: 'purgeAt', label: m('trash.column.purge', 'Deleted for good') },
    { name: 'actions', label: m('trash.column.actions', 'Actions') },
  ];
  const title = m('trash.title', 'Trash');
  return (
    <Page.Main aria-busy={isLoading}>
      <Page.Title>{`Quire - ${title}`}</Page.Title>
      <Layouts.Header
        navigationAction={<BackButton fallback=".." />}
        title={title}
        subtitle={m('trash.subtitle', 'Deleted articles are kept 30 days, then deleted for good. Restoring brings one back with its sections, notes and history, as a draft.')}
      />
      <Layouts.Content>
        <ListView
          label={title}
          columns={columns}
          rows={rows}
          isLoading={isLoading && !data}
          empty={m('trash.empty', 'The trash is empty')}
          pagination={data?.meta.pagination}
          rowProps={(article) => ({ 'data-trashed-article': article.id })}
          renderCells={(article) => [
            <Typography fontWeight="semiBold" textColor="neutral800" style={{ overflowWrap: 'anywhere' }}>
              {article.title}
            </Typography>,
            <UserName user={article.owner} deleted={deletedUser} />,
            <CellText>{formatNumber(article.words)}</CellText>,
            <CellText>
              {m('trash.deletedBy', '{at} by {name}', { at: when(article.deletedAt), name: article.deletedBy || m('review.nobody', 'unknown') })}
            </CellText>,
            <CellText>
              <time dateTime={article.purgeAt}>{when(article.purgeAt)}</time>
            </CellText>,
            restoreButton(article),
          ]}
          renderCard={(article) => (
            <>
              <Flex justifyContent="space-between" alignItems="flex-start" gap={2} width="100%">
                <Typography fontWeight="semiBold">{article.title}</Typography>
                {restoreButton(article)}
              </Flex>
              <CardDetails>
                {m('trash.card', 'Deleted {at} by {name} · deleted for good {purge}', { at: when(article.deletedAt), name: article.deletedBy, purge: when(article.purgeAt) })}
              </CardDetails>
            </>
          )}
        />
        {rows.length ? null : (
          <Flex paddingTop={4}>
            <Button variant="tertiary" onClick={() => navigate('..')}>
              {m('article.backToList', 'Back to the articles')}
            </Button>
          </Flex>
        )}
      </Layouts.Content>
    </Page.Main>
  );
};
