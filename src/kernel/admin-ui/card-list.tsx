/**
 * A list of cards: what a table becomes on a phone, where six columns do not fit. Each item
 * is a `<li>` card; the list shows a loader while nothing has loaded and `empty` when there
 * is nothing to show.
 */
import { Box, EmptyStateLayout, Flex, Loader } from '@strapi/design-system';
import * as React from 'react';

interface CardListProps {
  label: string;
  isLoading: boolean;
  empty: string;
  children: React.ReactNode;
}

export const CardList = ({ label, isLoading, empty, children }: CardListProps) => {
  const count = React.Children.count(children);
  if (isLoading && count === 0) {
    return (
      <Flex justifyContent="center" padding={8}>
        <Loader small>{label}</Loader>
      </Flex>
    );
  }
  if (count === 0) return <EmptyStateLayout content={empty} />;
  return (
    <Flex tag="ul" direction="column" alignItems="stretch" gap={3} aria-label={label}>
      {children}
    </Flex>
  );
};

export const Card = ({ children, ...rest }: { children: React.ReactNode } & Record<string, unknown>) => (
  <Box tag="li" background="neutral0" hasRadius shadow="tableShadow" padding={4} {...rest}>
    <Flex direction="column" alignItems="flex-start" gap={2}>
      {children}
    </Flex>
  </Box>
);
