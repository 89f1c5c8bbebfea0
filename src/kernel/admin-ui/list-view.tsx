/**
 * The body of a list page: a table on laptops and tablets, cards on phones, with Strapi's
 * loading and empty states and its pagination (page and page size in the URL). Pages give
 * the rows, how one row's cells and card look, and the pagination their admin route answered.
 */
import { Box, Typography } from '@strapi/design-system';
import { Pagination as PaginationControls, Table, useIsMobile } from '@strapi/strapi/admin';
import * as React from 'react';
import { Card, CardList } from './card-list';
import type { Pagination } from './types';

export interface ListColumn {
  name: string;
  label: string;
  /** A column whose text may wrap (titles, names), up to this width; others stay on one line. */
  maxWidth?: string;
}

interface ListViewProps<T extends { id: string | number }> {
  /** What the list holds ("Articles"), for assistive technology. */
  label: string;
  columns: ListColumn[];
  rows: T[];
  /** True while the first answer is awaited (later pages keep the previous rows shown). */
  isLoading: boolean;
  /** What to say when there are no rows. */
  empty: string;
  pagination?: Pagination;
  /** The row's cells, in the columns' order. */
  renderCells(row: T): React.ReactNode[];
  /** The row as a card, on phones. */
  renderCard(row: T): React.ReactNode;
  /** Attributes of the row and of its card: `data-*` for tests, `onClick`... */
  rowProps?(row: T): Record<string, unknown>;
}

export function ListView<T extends { id: string | number }>({ label, columns, rows, isLoading, empty, pagination, renderCells, renderCard, rowProps }: ListViewProps<T>) {
  const isMobile = useIsMobile();
  return (
    <>
      {isMobile ? (
        <CardList label={label} isLoading={isLoading} empty={empty}>
          {rows.map((row) => (
            <Card key={row.id} {...rowProps?.(row)}>
              {renderCard(row)}
            </Card>
          ))}
        </CardList>
      ) : (
        <Table.Root rows={rows} headers={columns} isLoading={isLoading}>
          <Table.Content>
            <Table.Head>
              {columns.map((column) => (
                <Table.HeaderCell key={column.name} name={column.name} label={column.label} />
              ))}
            </Table.Head>
            <Table.Loading />
            <Table.Empty content={empty} />
            <Table.Body>
              {rows.map((row) => (
                <Table.Row key={row.id} {...rowProps?.(row)}>
                  {renderCells(row).map((cell, i) => {
                    const { name, maxWidth } = columns[i];
                    return (
                      <Table.Cell key={name} maxWidth={maxWidth} style={maxWidth ? { whiteSpace: 'normal' } : undefined}>
                        {cell}
                      </Table.Cell>
                    );
                  })}
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Content>
        </Table.Root>
      )}
      {pagination && pagination.total > 0 ? (
        <Box paddingTop={4}>
          <PaginationControls.Root pageCount={pagination.pageCount} total={pagination.total} defaultPageSize={pagination.pageSize}>
            <PaginationControls.PageSize />
            <PaginationControls.Links />
          </PaginationControls.Root>
        </Box>
      ) : null}
    </>
  );
}

/** Plain text in a cell or a card. */
export const CellText = ({ children }: { children: React.ReactNode }) => <Typography textColor="neutral800">{children}</Typography>;

/** Secondary text of a card ("2 sections · updated ..."). */
export const CardDetails = ({ children }: { children: React.ReactNode }) => (
  <Typography variant="pi" textColor="neutral600">
    {children}
  </Typography>
);
