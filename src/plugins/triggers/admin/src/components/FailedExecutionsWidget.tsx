/**
 * The Triggers widget on the admin's home page (Strapi 5's homepage widget API, registered in
 * ../index.ts): the newest failed executions of every process instance, each opening its
 * instance's trigger panel (GET /triggers/executions/failed, server routes/admin.ts).
 */
import { Box, Flex, Typography } from '@strapi/design-system';
import { Widget } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { useFailedExecutions } from '../api/executions';
import { PLUGIN_ID, t } from '../pluginId';

export const FailedExecutionsWidget = () => {
  const { formatMessage, formatDate } = useIntl();
  const { data, error, isLoading } = useFailedExecutions();
  if (isLoading && !data) return <Widget.Loading />;
  if (error) return <Widget.Error />;
  const failures = data?.data ?? [];
  if (!failures.length) return <Widget.NoData>{formatMessage({ id: t('widget.failed.none'), defaultMessage: 'No execution has failed' })}</Widget.NoData>;
  return (
    <Box tag="ul" data-testid="widget-failed-executions">
      {failures.map((failure) => (
        <Flex key={failure.executionId} tag="li" direction="column" alignItems="flex-start" gap={1} paddingTop={2} paddingBottom={2} data-failed-execution={failure.executionId}>
          <Link to={`/plugins/${PLUGIN_ID}/instances/${encodeURIComponent(failure.instance.id)}`} style={{ textDecoration: 'none' }}>
            <Typography fontWeight="semiBold" textColor="primary600" ellipsis>
              {formatMessage(
                { id: t('widget.failed.what'), defaultMessage: '{workflow} in {instance}' },
                { workflow: failure.workflow.name ?? formatMessage({ id: t('widget.failed.deletedWorkflow'), defaultMessage: 'A deleted workflow' }), instance: failure.instance.name },
              )}
            </Typography>
          </Link>
          <Typography variant="pi" textColor="neutral600" ellipsis style={{ maxWidth: '100%' }}>
            <time dateTime={failure.failedAt}>{formatDate(failure.failedAt, { dateStyle: 'medium', timeStyle: 'short' })}</time>
            {failure.error ? ` · ${failure.error}` : ''}
          </Typography>
        </Flex>
      ))}
    </Box>
  );
};
