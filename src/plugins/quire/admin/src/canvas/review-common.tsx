/**
 * What the review views share (ReviewPanels: revisions and trash; suggestions/: suggestions in
 * place): who-and-when lines, the side panel's frame, and prose with
 * word-level marks (ins: added, del: removed).
 */
import { Box, Typography } from '@strapi/design-system';
import * as React from 'react';
import { useIntl } from 'react-intl';
import styled from 'styled-components';
import type { Actor } from '../api';
import { Prose } from './styles';
import { useMessages } from '../messages';

/** "Ada's bot (agent), Nov 24, 2026, 5:30 PM" */
export const ByLine = ({ by, at }: { by: Actor; at: string }) => {
  const { m } = useMessages();
  const { formatDate } = useIntl();
  return (
    <Typography variant="pi" textColor="neutral600">
      {m('review.by', '{name} ({kind}), {at}', { name: by.name || m('review.nobody', 'unknown'), kind: m(`review.kind.${by.kind}`, by.kind), at: formatDate(at, { dateStyle: 'medium', timeStyle: 'short' }) })}
    </Typography>
  );
};

/** A panel beside the article (the Brief's look). */
export const Panel = ({ title, testId, children }: { title: string; testId: string; children: React.ReactNode }) => (
  <Box background="neutral0" hasRadius shadow="tableShadow" padding={4} tag="section" aria-label={title} data-testid={testId}>
    <Typography variant="delta" tag="h2">
      {title}
    </Typography>
    {children}
  </Box>
);

/** A version with its changed words marked (ins: added; del: gone). */
export const Marked = styled(Prose)`
  ins { background: ${({ theme }) => theme.colors.success100}; color: ${({ theme }) => theme.colors.success700}; text-decoration: none; border-radius: 2px; padding: 0 1px; }
  del { background: ${({ theme }) => theme.colors.danger100}; color: ${({ theme }) => theme.colors.danger700}; text-decoration: line-through; border-radius: 2px; padding: 0 1px; }
  /* A replaced word: the old and the new one apart, not run together. */
  del + ins { margin-left: 0.3em; }
`;
