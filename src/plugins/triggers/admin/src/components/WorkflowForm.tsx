/**
 * Creating and editing a workflow: name, action from the registry (with its description),
 * config as JSON checked by the action's own schema on the server (its error shown under the
 * field), its skill's description and input schema (JSON checked here, the schema by the server), enabled; when editing, its signing secrets: fingerprints listed, one removed, a new
 * one generated or pasted and then shown once.
 */
import { Box, Button, Field, Flex, Modal, SingleSelect, SingleSelectOption, Switch, Textarea, TextInput, Typography } from '@strapi/design-system';
import * as React from 'react';
import { FormModalFooter } from '#kernel/admin-ui/form-modal';
import { useAdminMutation } from '#kernel/admin-ui/use-admin-mutation';
import type { AdminAction, AdminWorkflow, CreateWorkflowInput, UpdateWorkflowInput } from '../api';
import { useWorkflowsApi } from '../api/workflows';
import { useMessages } from '../messages';
import { ConfirmButton, Mono, SecretOnceDialog } from './secrets';

interface Props {
  instanceId: string;
  actions: AdminAction[];
  /** The workflow to edit; none to create one. */
  workflow?: AdminWorkflow;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: (workflow: AdminWorkflow) => void;
}

export const WorkflowForm = ({ instanceId, actions, workflow, open, onOpenChange, onSaved }: Props) => {
  const { m } = useMessages();
  const { run, busy } = useAdminMutation();
  const workflows = useWorkflowsApi(instanceId);
  const [name, setName] = React.useState(workflow?.name ?? '');
  const [action, setAction] = React.useState(workflow?.action ?? actions[0]?.name ?? '');
  const [config, setConfig] = React.useState(JSON.stringify(workflow?.config ?? actions[0]?.configExample ?? {}, null, 2));
  const [enabled, setEnabled] = React.useState(workflow?.enabled ?? true);
  const [callbackUrl, setCallbackUrl] = React.useState(workflow?.callbackUrl ?? '');
  const [callbackSecret, setCallbackSecret] = React.useState<string | null>(null);
  const [description, setDescription] = React.useState(workflow?.description ?? '');
  const [inputSchema, setInputSchema] = React.useState(workflow?.inputSchema ? JSON.stringify(workflow.inputSchema, null, 2) : '');
  const [errors, setErrors] = React.useState<{ config?: string; name?: string; callbackUrl?: string; description?: string; inputSchema?: string; form?: string }>({});
  const chosen = actions.find((a) => a.name === action);
  // The design system's Switch does not read the field's id: given by hand, so its label names it.
  const enabledId = React.useId();

  const chooseAction = (value: string) => {
    setAction(value);
    setConfig(JSON.stringify(actions.find((a) => a.name === value)?.configExample ?? {}, null, 2));
    setErrors({});
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    let parsed: unknown;
    try {
      parsed = config.trim() ? JSON.parse(config) : {};
    } catch (error) {
      return setErrors({ config: m('workflow.config.invalidJson', 'Not valid JSON: {reason}', { reason: (error as Error).message }) });
    }
    // The schema is checked here for JSON and shape, and by the server for the rest (it names the problem).
    let schema: Record<string, unknown> | null = null;
    if (inputSchema.trim()) {
      try {
        schema = JSON.parse(inputSchema);
      } catch (error) {
        return setErrors({ inputSchema: m('workflow.schema.invalidJson', 'Not valid JSON: {reason}', { reason: (error as Error).message }) });
      }
      if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
        return setErrors({ inputSchema: m('workflow.schema.notObject', 'A JSON Schema is an object: {"type": "object", "properties": {...}}') });
      }
    }
    if (description.length > 2000) return setErrors({ description: m('workflow.description.tooLong', 'At most 2,000 characters.') });
    const callback = callbackUrl.trim() ? callbackUrl.trim() : workflow?.callbackUrl ? null : undefined;
    const skill = { description: description.trim() ? description : null, inputSchema: schema };
    const body = workflow
      ? { name, config: parsed, enabled, callbackUrl: callback, ...skill }
      : { name, action, config: parsed, enabled, callbackUrl: callback ?? undefined, ...skill };
    const result = await run(() => (workflow ? workflows.update(workflow.id, body as UpdateWorkflowInput) : workflows.create(body as CreateWorkflowInput)), { quiet: true });
    if (result.error) {
      const message = result.error;
      return setErrors(
        /^inputSchema/.test(message)
          ? { inputSchema: message }
          : /^description/.test(message)
            ? { description: message }
            : /callbackUrl/i.test(message)
              ? { callbackUrl: message }
              : /config/i.test(message)
                ? { config: message }
                : /name/i.test(message)
                  ? { name: message }
                  : { form: message },
      );
    }
    setErrors({});
    onSaved(result.data!.workflow);
    // A callback secret is shown once: the form closes when its dialog does.
    if (result.data!.callbackSecret) setCallbackSecret(result.data!.callbackSecret);
    else onOpenChange(false);
  };

  return (
    <Modal.Root open={open} onOpenChange={onOpenChange}>
      <Modal.Content>
        <form onSubmit={submit} aria-label={workflow ? m('workflow.edit', 'Edit workflow') : m('workflow.create', 'Create workflow')}>
          <Modal.Header>
            <Modal.Title>{workflow ? m('workflow.edit.title', 'Edit "{name}"', { name: workflow.name }) : m('workflow.create.title', 'Create a workflow')}</Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <Flex direction="column" alignItems="stretch" gap={4}>
              <Field.Root name="name" required error={errors.name}>
                <Field.Label>{m('workflow.name', 'Name')}</Field.Label>
                <TextInput value={name} onChange={(e: React.ChangeEvent<HTMLInputElement>) => setName(e.target.value)} />
                <Field.Error />
              </Field.Root>
              <Field.Root name="action" required hint={chosen?.description}>
                <Field.Label>{m('workflow.action', 'Action')}</Field.Label>
                <SingleSelect value={action} onChange={(value) => chooseAction(String(value))} disabled={Boolean(workflow)}>
                  {actions.map((a) => (
                    <SingleSelectOption key={a.name} value={a.name}>
                      {a.name}
                    </SingleSelectOption>
                  ))}
                </SingleSelect>
                <Field.Hint />
              </Field.Root>
              <Field.Root name="config" error={errors.config} hint={m('workflow.config.hint', 'JSON, checked by the action when you save.')}>
                <Field.Label>{m('workflow.config', 'Config')}</Field.Label>
                <Textarea
                  value={config}
                  rows={6}
                  style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' }}
                  onChange={(e: React.ChangeEvent<HTMLTextAreaElement>) => setConfig(e.target.value)}
                />
                <Field.Hint />
                <Field.Error />
              </Field.Root>
              <Field.Root name="description" error={errors.description} hint={m('workflow.description.hint', 'What it does, for people and agents (its skill\'s description). At most 2,000 characters.')}>
                <Field.Label>{m('workflow.description', 'Description')}</Field.Label>
                <Textarea value={description} rows={3} maxLength={2000} onChange={(e: React.ChangeEvent<HTMLTextAreaElement>) => setDescription(e.target.value)} />
                <Field.Hint />
                <Field.Error />
              </Field.Root>
              <Field.Root
                name="inputSchema"
                error={errors.inputSchema}
                hint={m('workflow.schema.hint', 'Optional JSON Schema (draft 2020-12): a trigger whose input does not match is refused. Leave empty for any input.')}
              >
                <Field.Label>{m('workflow.schema', 'Input schema')}</Field.Label>
                <Textarea
                  value={inputSchema}
                  rows={6}
                  placeholder={'{"type": "object", "properties": {"email": {"type": "string"}}, "required": ["email"]}'}
                  style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' }}
                  onChange={(e: React.ChangeEvent<HTMLTextAreaElement>) => setInputSchema(e.target.value)}
                />
                <Field.Hint />
                <Field.Error />
              </Field.Root>
              <Field.Root
                name="callbackUrl"
                error={errors.callbackUrl}
                hint={m('workflow.callback.hint', 'Optional: Quire POSTs execution.finished there when an execution ends, signed with the callback secret (shown once when you first set it).')}
              >
                <Field.Label>{m('workflow.callback', 'Callback URL')}</Field.Label>
                <TextInput value={callbackUrl} placeholder="https://example.com/done" onChange={(e: React.ChangeEvent<HTMLInputElement>) => setCallbackUrl(e.target.value)} />
                <Field.Hint />
                <Field.Error />
              </Field.Root>
              {workflow?.callbackUrl ? (
                <Flex gap={2}>
                  <ConfirmButton
                    label={m('workflow.callback.rotate', 'Rotate callback secret')}
                    title={m('workflow.callback.rotate.title', 'Rotate the callback secret?')}
                    body={m('workflow.callback.rotate.body', 'The current callback secret stops signing at once: update the receiver with the new one.')}
                    confirm={m('workflow.callback.rotate.confirm', 'Rotate')}
                    variant="secondary"
                    onConfirm={async () => {
                      const rotated = await run(() => workflows.rotateCallbackSecret(workflow.id));
                      if (rotated.data?.callbackSecret) {
                        onSaved(rotated.data.workflow);
                        setCallbackSecret(rotated.data.callbackSecret);
                      }
                    }}
                  />
                </Flex>
              ) : null}
              <Field.Root name="enabled" id={enabledId} hint={m('workflow.enabled.hint', 'A disabled workflow refuses triggers.')}>
                <Field.Label>{m('workflow.enabled', 'Enabled')}</Field.Label>
                <Switch id={enabledId} checked={enabled} onCheckedChange={setEnabled} onLabel={m('on', 'On')} offLabel={m('off', 'Off')} visibleLabels />
                <Field.Hint />
              </Field.Root>
              {workflow ? <SigningSecrets instanceId={instanceId} workflow={workflow} onChange={onSaved} /> : (
                <Typography variant="pi" textColor="neutral600">
                  {m('workflow.secrets.later', 'Signing secrets (for signed requests) are added once the workflow exists: Edit, then Signing secrets.')}
                </Typography>
              )}
              {errors.form ? (
                <Typography textColor="danger600" role="alert">
                  {errors.form}
                </Typography>
              ) : null}
            </Flex>
          </Modal.Body>
          <FormModalFooter cancel={m('cancel', 'Cancel')} submit={m('save', 'Save')} busy={busy} disabled={!name.trim() || !action} />
        </form>
      </Modal.Content>
      <SecretOnceDialog
        title={m('workflow.callback.secret', 'Callback secret')}
        secret={callbackSecret}
        onClose={() => {
          setCallbackSecret(null);
          onOpenChange(false);
        }}
      />
    </Modal.Root>
  );
};

const SigningSecrets = ({ instanceId, workflow, onChange }: { instanceId: string; workflow: AdminWorkflow; onChange: (workflow: AdminWorkflow) => void }) => {
  const { m } = useMessages();
  const { run, busy } = useAdminMutation();
  const workflows = useWorkflowsApi(instanceId);
  const [pasted, setPasted] = React.useState('');
  const [error, setError] = React.useState<string | undefined>();
  const [shown, setShown] = React.useState<string | null>(null);

  const add = async (secret?: string) => {
    const result = await run(() => workflows.addSecret(workflow.id, secret), { quiet: true });
    if (result.error) return setError(result.error);
    setError(undefined);
    setPasted('');
    setShown(result.data!.secret);
    onChange(result.data!.workflow);
  };

  return (
    <Box tag="fieldset" style={{ border: 0, padding: 0, margin: 0 }} data-signing-secrets="">
      <Typography tag="legend" variant="sigma" textColor="neutral600">
        {m('workflow.secrets', 'Signing secrets')}
      </Typography>
      <Typography variant="pi" textColor="neutral600" tag="p">
        {m('workflow.secrets.about', 'A request signed with any of them (Standard Webhooks) is accepted without a key. Keep two while you rotate.')}
      </Typography>
      <Flex tag="ul" direction="column" alignItems="stretch" gap={2} paddingTop={2} paddingBottom={2}>
        {workflow.signingSecrets.map((secret) => (
          <Flex tag="li" key={secret.id} justifyContent="space-between" gap={2} data-secret={secret.id}>
            <Mono>{secret.hint}</Mono>
            <ConfirmButton
              label={m('workflow.secrets.remove', 'Remove')}
              title={m('workflow.secrets.remove.title', 'Remove this signing secret?')}
              body={m('workflow.secrets.remove.body', 'Requests signed with it are refused from now on.')}
              confirm={m('workflow.secrets.remove', 'Remove')}
              onConfirm={async () => {
                const result = await run(() => workflows.removeSecret(workflow.id, secret.id));
                if (result.data) onChange(result.data);
              }}
            />
          </Flex>
        ))}
        {workflow.signingSecrets.length === 0 ? (
          <Typography variant="pi" tag="li">
            {m('workflow.secrets.none', 'None: only keys are accepted.')}
          </Typography>
        ) : null}
      </Flex>
      <Flex gap={2} alignItems="flex-end" wrap="wrap">
        <Button type="button" variant="secondary" size="S" loading={busy} onClick={() => add()}>
          {m('workflow.secrets.generate', 'Generate a secret')}
        </Button>
        <Field.Root name="pastedSecret" error={error}>
          <Field.Label>{m('workflow.secrets.paste', 'Or paste one (whsec_…)')}</Field.Label>
          <Flex gap={2}>
            <TextInput value={pasted} onChange={(e: React.ChangeEvent<HTMLInputElement>) => setPasted(e.target.value)} autoComplete="off" />
            <Button type="button" variant="secondary" size="S" disabled={!pasted.trim()} onClick={() => add(pasted.trim())}>
              {m('workflow.secrets.add', 'Add')}
            </Button>
          </Flex>
          <Field.Error />
        </Field.Root>
      </Flex>
      <SecretOnceDialog title={m('workflow.secrets.added', 'Signing secret added')} secret={shown} onClose={() => setShown(null)} />
    </Box>
  );
};
