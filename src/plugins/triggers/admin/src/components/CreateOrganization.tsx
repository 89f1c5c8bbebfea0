/** The "Create organization" button and its form: a name and its owner, a users-permissions user. */
import { Button, Combobox, ComboboxOption, Field, Flex, Modal, TextInput } from '@strapi/design-system';
import { Plus } from '@strapi/icons';
import * as React from 'react';
import { FormModalFooter } from '#kernel/admin-ui/form-modal';
import { useAdminMutation } from '#kernel/admin-ui/use-admin-mutation';
import type { AdminOrganizationDetail, AdminUser } from '../api';
import { useOrganizationsApi } from '../api/organizations';
import { useMessages } from '../messages';

export const CreateOrganization = ({ onCreated }: { onCreated: (organization: AdminOrganizationDetail) => void }) => {
  const { m } = useMessages();
  const organizations = useOrganizationsApi();
  const { run, busy } = useAdminMutation();
  const [open, setOpen] = React.useState(false);
  const [name, setName] = React.useState('');
  const [ownerId, setOwnerId] = React.useState<string | undefined>();
  const [search, setSearch] = React.useState('');
  const [users, setUsers] = React.useState<AdminUser[]>([]);
  const [error, setError] = React.useState<string | undefined>();

  React.useEffect(() => {
    if (!open) return;
    let current = true;
    organizations.users(search).then(
      (found) => current && setUsers(found),
      () => current && setUsers([]),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, search]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const { data, error: failure } = await run(() => organizations.create({ name, ownerId: ownerId ? Number(ownerId) : undefined }), { quiet: true });
    if (failure) return setError(failure);
    setOpen(false);
    setName('');
    setOwnerId(undefined);
    setError(undefined);
    onCreated(data!);
  };

  return (
    <Modal.Root open={open} onOpenChange={setOpen}>
      <Modal.Trigger>
        <Button startIcon={<Plus />}>{m('organizations.create', 'Create organization')}</Button>
      </Modal.Trigger>
      <Modal.Content>
        <form onSubmit={submit}>
          <Modal.Header>
            <Modal.Title>{m('organizations.create.title', 'Create an organization')}</Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <Flex direction="column" alignItems="stretch" gap={4}>
              <Field.Root name="name" required>
                <Field.Label>{m('organizations.create.name', 'Name')}</Field.Label>
                <TextInput value={name} onChange={(e: React.ChangeEvent<HTMLInputElement>) => setName(e.target.value)} />
              </Field.Root>
              <Field.Root name="owner" required error={error} hint={m('organizations.create.owner.hint', 'The user (who signs in through the API and the CLI) who will own it: type part of their username or email.')}>
                <Field.Label>{m('organizations.create.owner', 'Owner')}</Field.Label>
                <Combobox
                  value={ownerId}
                  onChange={(value) => setOwnerId(value ?? undefined)}
                  onInputChange={(e: React.ChangeEvent<HTMLInputElement>) => setSearch(e.target.value)}
                  onClear={() => setOwnerId(undefined)}
                  autocomplete={{ type: 'list', filter: 'contains' }}
                  noOptionsMessage={() => m('organizations.create.owner.none', 'No user matches')}
                  placeholder={m('organizations.create.owner.placeholder', 'Username or email…')}
                >
                  {users.map((user) => (
                    <ComboboxOption key={user.id} value={String(user.id)}>
                      {`${user.username} (${user.email})`}
                    </ComboboxOption>
                  ))}
                </Combobox>
                <Field.Hint />
                <Field.Error />
              </Field.Root>
            </Flex>
          </Modal.Body>
          <FormModalFooter cancel={m('cancel', 'Cancel')} submit={m('organizations.create.submit', 'Create')} busy={busy} disabled={!name.trim() || !ownerId} />
        </form>
      </Modal.Content>
    </Modal.Root>
  );
};
