/**
 * The canvas's header: the article's title, who owns it, its size and last change, its status,
 * and the actions on the whole article (rename, delete, preview, the public page, publish and
 * unpublish), and the Authors toggle (the text coloured by who wrote it).
 */
import { Button, Flex, LinkButton } from '@strapi/design-system';
import { ExternalLink } from '@strapi/icons';
import { BackButton, Layouts } from '@strapi/strapi/admin';
import * as React from 'react';
import { useIntl } from 'react-intl';
import type { AdminArticleDetail } from '../api';
import { ArticleActions, ChangedBadge, PreviewButton } from '../components/ArticleManagement';
import { StatusBadge } from '../components/StatusBadge';
import { useMessages } from '../messages';

interface Props {
  article: AdminArticleDetail;
  /** The outline's ETag: the preview shows this version. */
  version: string | null;
  canEdit: boolean;
  canDelete: boolean;
  canPublish: boolean;
  publishing: boolean;
  onPublish: (publish: boolean) => void;
  onRenamed: () => void;
  onDeleted: () => void;
  /** The Authors toggle: the text coloured by who wrote it (canvas/AuthorsView.tsx). */
  authors: boolean;
  onAuthors: (on: boolean) => void;
}

export const ArticleHeader = ({ article, version, canEdit, canDelete, canPublish, publishing, onPublish, onRenamed, onDeleted, authors, onAuthors }: Props) => {
  const { formatDate } = useIntl();
  const { m } = useMessages();
  const published = article.status === 'published';
  return (
    <Layouts.Header
      navigationAction={<BackButton fallback=".." />}
      title={article.title}
      subtitle={m(
        'article.subtitle',
        'By {owner} · {words, plural, one {# word} other {# words}} · {sections, plural, one {# section} other {# sections}} · updated {updatedAt}',
        {
          owner: article.owner?.username ?? m('articles.owner.deleted', 'Deleted user'),
          words: article.words,
          sections: article.sections,
          updatedAt: formatDate(article.updatedAt, { dateStyle: 'medium', timeStyle: 'short' }),
        },
      )}
      secondaryAction={
        <Flex gap={1}>
          <StatusBadge status={article.status} />
          <ChangedBadge article={article} />
        </Flex>
      }
      primaryAction={
        <Flex gap={2} wrap="wrap" data-testid="publishing">
          <Button variant={authors ? 'secondary' : 'tertiary'} aria-pressed={authors} onClick={() => onAuthors(!authors)} data-testid="authors-toggle">
            {m('canvas.authors', 'Authors')}
          </Button>
          <ArticleActions article={article} canEdit={canEdit} canDelete={canDelete} onRenamed={onRenamed} onDeleted={onDeleted} />
          <PreviewButton articleId={article.id} version={version ?? undefined} />
          {published && article.publicUrl ? (
            <LinkButton href={article.publicUrl} isExternal variant="tertiary" endIcon={<ExternalLink />}>
              {m('canvas.openPublic', 'Open the public page')}
            </LinkButton>
          ) : null}
          {canPublish && published ? (
            <Button variant="secondary" onClick={() => onPublish(false)} loading={publishing}>
              {m('canvas.unpublish', 'Unpublish')}
            </Button>
          ) : null}
          {canPublish ? (
            <Button onClick={() => onPublish(true)} loading={publishing}>
              {published ? m('canvas.republish', 'Republish') : m('canvas.publish', 'Publish')}
            </Button>
          ) : null}
        </Flex>
      }
    />
  );
};
