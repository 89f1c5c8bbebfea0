import { Badge } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { t } from '../pluginId';

const COLOURS: Record<string, { backgroundColor: string; textColor: string }> = {
  draft: { backgroundColor: 'secondary100', textColor: 'secondary700' },
  published: { backgroundColor: 'success100', textColor: 'success700' },
};

/** An article's status as a coloured badge ("Draft", "Published"). */
export const StatusBadge = ({ status }: { status: string }) => {
  const { formatMessage } = useIntl();
  const colours = COLOURS[status] ?? { backgroundColor: 'neutral150', textColor: 'neutral700' };
  return (
    <Badge {...colours} data-status={status}>
      {formatMessage({ id: t(`status.${status}`), defaultMessage: status })}
    </Badge>
  );
};
