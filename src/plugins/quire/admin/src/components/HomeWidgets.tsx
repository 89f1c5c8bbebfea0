/**
 * Quire's widgets on the admin's home page (Strapi 5's homepage widget API, registered in
 * ../index.ts): the articles agents changed most recently, and the articles with suggestions
 * waiting for an editor. Each row opens the article's canvas.
 */
import { Badge, Box, Flex, Typography } from '@strapi/design-system';
import { Widget } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { useAgentChanges, usePendingSuggestions } from '../api/widgets';
import { PLUGIN_ID, t } from '../pluginId';

const canvas = (id: string) => `/plugins/${PLUGIN_ID}/articles/${id}`;

/** One row of a widget: the article's title (a link to its canvas), what happened, when. */
const Row = ({ id, title, detail, at, extra }: { id: string; title: string; detail: string; at: string; extra?: React.ReactNode }) => {
  const { formatDate } = useIntl();
  return (
    <Flex tag="li" justifyContent="space-between" alignItems="center" gap={2} paddingTop={2} paddingBottom={2} data-widget-article={id}>
      <Flex direction="column" alignItems="flex-start" gap={1} style={{ minWidth: 0 }}>
        <Link to={canvas(id)} style={{ textDecoration: 'none' }}>
          <Typography fontWeight="semiBold" textColor="primary600" ellipsis>
            {title}
          </Typography>
        </Link>
        <Typography variant="pi" textColor="neutral600">
          {detail} · <time dateTime={at}>{formatDate(at, { dateStyle: 'medium', timeStyle: 'short' })}</time>
        </Typography>
      </Flex>
      {extra}
    </Flex>
  );
};

export const AgentChangesWidget = () => {
  const { formatMessage } = useIntl();
  const { data, error, isLoading } = useAgentChanges();
  if (isLoading && !data) return <Widget.Loading />;
  if (error) return <Widget.Error />;
  const articles = data?.data.articles ?? [];
  if (!articles.length) return <Widget.NoData>{formatMessage({ id: t('widget.agentChanges.none'), defaultMessage: 'No agent has changed an article yet' })}</Widget.NoData>;
  return (
    <Box tag="ul" data-testid="widget-agent-changes">
      {articles.map((article) => (
        <Row
          key={article.id}
          id={article.id}
          title={article.title}
          at={article.changedAt}
          detail={formatMessage({ id: t('widget.agentChanges.by'), defaultMessage: 'changed by {name}' }, { name: article.by || 'an agent' })}
        />
      ))}
    </Box>
  );
};

export const PendingSuggestionsWidget = () => {
  const { formatMessage } = useIntl();
  const { data, error, isLoading } = usePendingSuggestions();
  if (isLoading && !data) return <Widget.Loading />;
  if (error) return <Widget.Error />;
  const pending = data?.data;
  if (!pending?.articles.length) return <Widget.NoData>{formatMessage({ id: t('widget.suggestions.none'), defaultMessage: 'No suggestion is waiting for a decision' })}</Widget.NoData>;
  return (
    <Box data-testid="widget-pending-suggestions">
      <Typography variant="pi" textColor="neutral600">
        {formatMessage(
          { id: t('widget.suggestions.total'), defaultMessage: '{total, plural, one {# suggestion waits} other {# suggestions wait}} for an editor' },
          { total: pending.total },
        )}
      </Typography>
      <Box tag="ul">
        {pending.articles.map((article) => (
          <Row
            key={article.id}
            id={article.id}
            title={article.title}
            at={article.newestAt}
            detail={formatMessage({ id: t('widget.suggestions.latest'), defaultMessage: 'latest suggestion' })}
            extra={
              <Badge backgroundColor="warning100" textColor="warning700" data-pending={article.pending}>
                {formatMessage({ id: t('widget.suggestions.count'), defaultMessage: '{count} pending' }, { count: article.pending })}
              </Badge>
            }
          />
        ))}
      </Box>
    </Box>
  );
};
