/**
 * The Public API Access section of a trigger panel: the instance key masked until Reveal, a
 * copy button, and Regenerate behind a confirmation (the old key fails at once).
 */
import { Button, Flex, Typography } from '@strapi/design-system';
import { Eye, EyeStriked } from '@strapi/icons';
import * as React from 'react';
import { useAdminMutation } from '#kernel/admin-ui/use-admin-mutation';
import { useAllowed } from '#kernel/admin-ui/use-permissions';
import type { AdminInstanceSummary } from '../api';
import { useInstancesApi } from '../api/instances';
import { useMessages } from '../messages';
import { PERMISSIONS } from '../permissions';
import { ConfirmButton, CopyButton, Mono, Section } from './secrets';

export const ApiAccess = ({ instance, onRegenerated }: { instance: AdminInstanceSummary; onRegenerated: () => void }) => {
  const { m } = useMessages();
  const canManage = useAllowed(PERMISSIONS.manage);
  const { run, busy } = useAdminMutation();
  const [key, setKey] = React.useState<string | null>(null);

  return (
    <Section title={m('access.title', 'Public API Access')} data-section="api-access">
      <Flex direction="column" alignItems="stretch" gap={3}>
        <Typography variant="omega" textColor="neutral600" tag="p">
          {m(
            'access.about',
            'The instance key (ck_…) lets a caller trigger this instance\'s workflows and read their status: send it as X-API-Key (or ?api_key=). Keep it secret.',
          )}
        </Typography>
        <Mono data-instance-key={key ? 'revealed' : 'masked'}>{key ?? instance.keyHint}</Mono>
        {canManage ? <KeyActions instance={instance} revealed={key} onReveal={setKey} onRegenerated={onRegenerated} busy={busy} run={run} /> : null}
      </Flex>
    </Section>
  );
};

const KeyActions = ({
  instance,
  revealed,
  onReveal,
  onRegenerated,
  busy,
  run,
}: {
  instance: AdminInstanceSummary;
  revealed: string | null;
  onReveal: (key: string | null) => void;
  onRegenerated: () => void;
  busy: boolean;
  run: ReturnType<typeof useAdminMutation>['run'];
}) => {
  const { m } = useMessages();
  const { get } = useFetchKey();
  const instances = useInstancesApi();
  return (
    <Flex gap={2} wrap="wrap">
      {revealed ? (
        <Button variant="secondary" size="S" startIcon={<EyeStriked />} onClick={() => onReveal(null)}>
          {m('access.hide', 'Hide')}
        </Button>
      ) : (
        <Button variant="secondary" size="S" startIcon={<Eye />} loading={busy} onClick={async () => onReveal(await get(instance.id))}>
          {m('access.reveal', 'Reveal')}
        </Button>
      )}
      {revealed ? <CopyButton value={revealed} label={m('access.copy', 'Copy key')} /> : null}
      <ConfirmButton
        label={m('access.regenerate', 'Regenerate')}
        title={m('access.regenerate.title', 'Regenerate the instance key?')}
        body={m('access.regenerate.body', 'The current key stops working at once: every caller using it gets 401 until it is given the new key.')}
        confirm={m('access.regenerate.confirm', 'Regenerate')}
        onConfirm={async () => {
          const result = await run(() => instances.regenerateKey(instance.id));
          if (result.error) return;
          onReveal(revealed ? await get(instance.id) : null);
          onRegenerated();
        }}
      />
    </Flex>
  );
};

/** GET /triggers/instances/{id}/key (needs plugin::triggers.manage). */
export function useFetchKey() {
  const { run } = useAdminMutation();
  const instances = useInstancesApi();
  return {
    get: async (instanceId: string): Promise<string | null> => {
      const result = await run(() => instances.key(instanceId));
      return result.data?.apiKey ?? null;
    },
  };
}
