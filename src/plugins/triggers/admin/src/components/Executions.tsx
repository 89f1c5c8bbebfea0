/**
 * The executions of a trigger panel: a table (cards on a phone) with status badges, filters
 * by workflow and status (in the address), refreshed every 2 seconds while any shown is
 * pending or running, and a drawer with one execution's input, output, error, attempts,
 * times and callback delivery, with Replay (a new execution of the same workflow and input).
 */
import { Badge, Box, Button, Flex, IconButton, SingleSelect, SingleSelectOption, Typography } from '@strapi/design-system';
import { ArrowClockwise, Cross } from '@strapi/icons';
import { useQueryParams } from '@strapi/strapi/admin';
import * as React from 'react';
import { useIntl } from 'react-intl';
import { CardDetails, CellText, ListView, type ListColumn } from '#kernel/admin-ui/list-view';
import { useAdminMutation } from '#kernel/admin-ui/use-admin-mutation';
import { useAllowed } from '#kernel/admin-ui/use-permissions';
import type { AdminExecution, AdminExecutionDetail, AdminWorkflow } from '../api';
import { useExecution, useExecutionList, useExecutionsApi } from '../api/executions';
import { useMessages } from '../messages';
import { PERMISSIONS } from '../permissions';
import { Mono, Section } from './secrets';

const STATUSES = ['pending', 'running', 'success', 'failed'] as const;
const BADGE: Record<string, 'success' | 'danger' | 'warning' | 'secondary'> = { success: 'success', failed: 'danger', running: 'warning', pending: 'secondary' };
const REFRESH_MS = 2000;
/** How each credential that can start an execution is named to an operator. */
const STARTED_WITH_LABELS: Record<NonNullable<AdminExecutionDetail['startedWith']>, string> = {
  'instance-key': 'Instance key (X-API-Key)',
  'instance-key-query': 'Instance key (api_key parameter)',
  'organization-key': 'Organization key',
  'webhook-signature': 'Signed webhook',
  replay: 'Replay from the panel or the API',
};
/** One format for an execution's times, in the table and in the drawer alike (seconds matter here). */
const EXECUTION_TIME = { dateStyle: 'medium', timeStyle: 'medium' } as const;

interface ExecutionsQuery {
  page?: string;
  pageSize?: string;
  workflowId?: string;
  status?: string;
}

export const Executions = ({ instanceId, workflows, opened, onOpen }: { instanceId: string; workflows: AdminWorkflow[]; opened: string | null; onOpen: (id: string | null) => void }) => {
  const { m } = useMessages();
  const { formatDate } = useIntl();
  const [{ query }, setQuery] = useQueryParams<ExecutionsQuery>();
  const params = { page: query.page ?? '1', pageSize: query.pageSize ?? '10', workflowId: query.workflowId || undefined, status: query.status || undefined };
  const { data, error, isLoading, reload } = useExecutionList(instanceId, params);
  const executions = data?.data ?? [];
  const active = executions.some((e) => e.status === 'pending' || e.status === 'running');
  const nameOf = (id: string) => workflows.find((w) => w.id === id)?.name ?? m('executions.workflow.deleted', 'Deleted workflow');
  const statusLabel = (status: string) => m(`executions.status.${status}`, status);

  React.useEffect(() => {
    if (!active) return;
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [active, reload]);

  // A test just sent: show it at the top and open it.
  React.useEffect(() => {
    if (opened) reload();
  }, [opened, reload]);

  const when = (iso: string | null) => (iso ? formatDate(iso, EXECUTION_TIME) : '–');
  const columns: ListColumn[] = [
    { name: 'status', label: m('executions.column.status', 'Status') },
    { name: 'workflow', label: m('executions.column.workflow', 'Workflow'), maxWidth: '20rem' },
    { name: 'createdAt', label: m('executions.column.createdAt', 'Triggered') },
    { name: 'attempts', label: m('executions.column.attempts', 'Attempts') },
    { name: 'finishedAt', label: m('executions.column.finishedAt', 'Finished') },
  ];
  const setFilter = (name: 'workflowId' | 'status', value: string | undefined) => setQuery({ [name]: value ?? '', page: '1' } as ExecutionsQuery, value ? 'push' : 'remove');

  return (
    <Section
      title={m('executions.title', 'Executions')}
      data-section="executions"
      data-refreshing={active ? 'true' : 'false'}
      actions={
        <Button variant="tertiary" size="S" startIcon={<ArrowClockwise />} onClick={reload} loading={isLoading && Boolean(data)}>
          {m('executions.refresh', 'Refresh')}
        </Button>
      }
    >
      <Flex gap={2} wrap="wrap" paddingBottom={4}>
        <Box minWidth="16rem">
          <SingleSelect
            aria-label={m('executions.filter.workflow', 'Workflow')}
            size="S"
            placeholder={m('executions.filter.workflow.all', 'All workflows')}
            value={params.workflowId ?? null}
            onChange={(value) => setFilter('workflowId', value ? String(value) : undefined)}
            onClear={() => setFilter('workflowId', undefined)}
          >
            {workflows.map((w) => (
              <SingleSelectOption key={w.id} value={w.id}>
                {w.name}
              </SingleSelectOption>
            ))}
          </SingleSelect>
        </Box>
        <Box minWidth="16rem">
          <SingleSelect
            aria-label={m('executions.filter.status', 'Status')}
            size="S"
            placeholder={m('executions.filter.status.all', 'All statuses')}
            value={params.status ?? null}
            onChange={(value) => setFilter('status', value ? String(value) : undefined)}
            onClear={() => setFilter('status', undefined)}
          >
            {STATUSES.map((status) => (
              <SingleSelectOption key={status} value={status}>
                {statusLabel(status)}
              </SingleSelectOption>
            ))}
          </SingleSelect>
        </Box>
      </Flex>
      {error && !data ? (
        <Typography textColor="danger600">{m('executions.error', 'Could not load the executions.')}</Typography>
      ) : (
        <ListView
          label={m('executions.title', 'Executions')}
          columns={columns}
          rows={executions.map((e) => ({ ...e, id: e.executionId }))}
          isLoading={isLoading && !data}
          empty={params.workflowId || params.status ? m('executions.empty.filtered', 'No execution matches these filters') : m('executions.empty', 'No executions yet: call a trigger URL, or Send test')}
          pagination={data?.meta.pagination}
          rowProps={(e) => ({ 'data-execution': e.executionId, 'data-status': e.status, cursor: 'pointer', onClick: () => onOpen(e.executionId) })}
          renderCells={(e) => [
            <Badge variant={BADGE[e.status]}>{statusLabel(e.status)}</Badge>,
            <CellText>{nameOf(e.workflowId)}</CellText>,
            <CellText>{when(e.createdAt)}</CellText>,
            <CellText>{`${e.attempts} / ${e.maxAttempts}`}</CellText>,
            <CellText>{when(e.finishedAt)}</CellText>,
          ]}
          renderCard={(e) => (
            <>
              <Flex gap={2}>
                <Badge variant={BADGE[e.status]}>{statusLabel(e.status)}</Badge>
                <Typography fontWeight="semiBold">{nameOf(e.workflowId)}</Typography>
              </Flex>
              <CardDetails>{m('executions.card', 'Triggered {createdAt} · attempts {attempts}', { createdAt: when(e.createdAt), attempts: `${e.attempts} / ${e.maxAttempts}` })}</CardDetails>
            </>
          )}
        />
      )}
      {opened ? <ExecutionDrawer key={opened} instanceId={instanceId} executionId={opened} workflowName={nameOf} onClose={() => onOpen(null)} onReplayed={onOpen} /> : null}
    </Section>
  );
};

const ExecutionDrawer = ({
  instanceId,
  executionId,
  workflowName,
  onClose,
  onReplayed,
}: {
  instanceId: string;
  executionId: string;
  workflowName: (id: string) => string;
  onClose: () => void;
  onReplayed: (executionId: string) => void;
}) => {
  const { m } = useMessages();
  const canManage = useAllowed(PERMISSIONS.manage);
  const { run, busy } = useAdminMutation();
  const executions = useExecutionsApi(instanceId);
  const { formatDate } = useIntl();
  const { data, reload } = useExecution(instanceId, executionId);
  const execution = data?.data;
  const active = execution ? execution.status === 'pending' || execution.status === 'running' : true;

  React.useEffect(() => {
    if (!active) return;
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [active, reload]);

  React.useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const when = (iso: string | null) => (iso ? formatDate(iso, EXECUTION_TIME) : '–');
  const title = m('execution.title', 'Execution');
  return (
    <>
      {/* Clicking beside the drawer closes it, as with Strapi's own side panels. */}
      <Box onClick={onClose} aria-hidden style={{ position: 'fixed', inset: 0, background: 'rgba(33, 33, 52, 0.2)', zIndex: 3 }} />
      <Box
        role="dialog"
        aria-label={title}
        data-execution-drawer={executionId}
        background="neutral0"
        shadow="popupShadow"
        padding={6}
        style={{ position: 'fixed', top: 0, right: 0, bottom: 0, width: 'min(52rem, 100vw)', overflowY: 'auto', zIndex: 3 }}
      >
        <Flex justifyContent="space-between" alignItems="center" paddingBottom={4}>
          <Typography tag="h2" variant="beta">
            {title}
          </Typography>
          <IconButton label={m('close', 'Close')} onClick={onClose}>
            <Cross />
          </IconButton>
        </Flex>
        {execution ? (
          <Flex direction="column" alignItems="stretch" gap={4}>
            <Flex gap={2} wrap="wrap">
              <Badge variant={BADGE[execution.status]} data-status={execution.status}>
                {m(`executions.status.${execution.status}`, execution.status)}
              </Badge>
              <Typography>{workflowName(execution.workflowId)}</Typography>
            </Flex>
            <Facts
              rows={[
                [m('execution.id', 'Id'), execution.executionId],
                [m('execution.attempts', 'Attempts'), `${execution.attempts} / ${execution.maxAttempts}`],
                [m('execution.createdAt', 'Triggered'), when(execution.createdAt)],
                [m('execution.startedAt', 'Started'), when(execution.startedAt)],
                [m('execution.finishedAt', 'Finished'), when(execution.finishedAt)],
                ...(execution.startedWith
                  ? [[m('execution.startedWith', 'Started with'), m(`execution.startedWith.${execution.startedWith}`, STARTED_WITH_LABELS[execution.startedWith])] as [string, string]]
                  : []),
                ...(execution.replayOf ? [[m('execution.replayOf', 'Replay of'), execution.replayOf] as [string, string]] : []),
                ...(execution.callback
                  ? [
                      [
                        m('execution.callback', 'Callback'),
                        m('execution.callback.value', '{status} after {attempts, plural, one {# attempt} other {# attempts}}{error}', {
                          status: execution.callback.status,
                          attempts: execution.callback.attempts,
                          error: execution.callback.lastError ? ` (${execution.callback.lastError})` : '',
                        }),
                      ] as [string, string],
                    ]
                  : []),
              ]}
            />
            <Json title={m('execution.input', 'Input')} value={execution.input} name="input" />
            <Json title={m('execution.output', 'Output')} value={execution.output} name="output" />
            {execution.error ? <Json title={m('execution.error', 'Error')} value={execution.error} name="error" /> : null}
            {canManage ? (
              <Flex>
                <Button
                  startIcon={<ArrowClockwise />}
                  loading={busy}
                  onClick={async () => {
                    const result = await run(() => executions.replay(execution.executionId));
                    if (result.data) onReplayed(result.data.executionId);
                  }}
                >
                  {m('execution.replay', 'Replay')}
                </Button>
              </Flex>
            ) : null}
          </Flex>
        ) : null}
      </Box>
    </>
  );
};

const Facts = ({ rows }: { rows: Array<[string, string]> }) => (
  <Box tag="dl" style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '0.4rem 1.6rem', margin: 0 }}>
    {rows.map(([label, value]) => (
      <React.Fragment key={label}>
        <Typography tag="dt" variant="sigma" textColor="neutral600">
          {label}
        </Typography>
        <Typography tag="dd" style={{ margin: 0, overflowWrap: 'anywhere' }}>
          {value}
        </Typography>
      </React.Fragment>
    ))}
  </Box>
);

const Json = ({ title, value, name }: { title: string; value: unknown; name: string }) => (
  <Box>
    <Typography variant="sigma" textColor="neutral600" tag="h3">
      {title}
    </Typography>
    <Mono data-json={name}>
      <span style={{ whiteSpace: 'pre-wrap' }}>{value === null || value === undefined ? 'null' : JSON.stringify(value, null, 2)}</span>
    </Mono>
  </Box>
);
