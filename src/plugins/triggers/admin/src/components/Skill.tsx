/**
 * A workflow as a skill (CONTRACT 21): its skill name (the MCP tool's name), description and
 * input schema, and a "try it" form made from the schema (one field per top-level property,
 * by type; a JSON text area for the rest) that calls the real trigger route with the instance
 * key. And the MCP client configuration an organization's agents use.
 */
import { Box, Button, Field, Flex, Switch, Textarea, TextInput, Typography } from '@strapi/design-system';
import { Play } from '@strapi/icons';
import * as React from 'react';
import type { AdminWorkflow } from '../api';
import { triggerFromPanel } from '../api/workflows';
import { useMessages } from '../messages';
import { useFetchKey } from './ApiAccess';
import { CodeSample, CopyButton, Mono } from './secrets';

type Property = { type?: unknown; description?: unknown; enum?: unknown };
type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'json';

/** The form's fields: one per top-level property, or none (the whole input as JSON). */
export function formFields(schema: Record<string, unknown> | null): Array<{ name: string; kind: FieldKind; required: boolean; description?: string }> | null {
  const properties = schema?.properties;
  if (!schema || schema.type !== 'object' || !properties || typeof properties !== 'object' || Array.isArray(properties)) return null;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties as Record<string, Property>).map(([name, property]) => {
    const type = typeof property?.type === 'string' ? property.type : undefined;
    const kind: FieldKind = type === 'string' || type === 'number' || type === 'integer' || type === 'boolean' ? type : 'json';
    return { name, kind, required: required.has(name), description: typeof property?.description === 'string' ? property.description : undefined };
  });
}

/** The form's values as the input: empty optional fields left out; numbers and JSON parsed (an error names the field). */
export function inputOf(fields: NonNullable<ReturnType<typeof formFields>>, values: Record<string, string | boolean>): { input?: Record<string, unknown>; error?: string } {
  const input: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === 'boolean') {
      if (value !== undefined) input[field.name] = Boolean(value);
      continue;
    }
    const text = typeof value === 'string' ? value : '';
    if (!text.trim()) continue;
    if (field.kind === 'string') input[field.name] = text;
    else if (field.kind === 'number' || field.kind === 'integer') {
      const n = Number(text);
      if (!Number.isFinite(n)) return { error: `${field.name}: not a number` };
      input[field.name] = n;
    } else {
      try {
        input[field.name] = JSON.parse(text);
      } catch {
        return { error: `${field.name}: not valid JSON` };
      }
    }
  }
  return { input };
}

export const SkillSection = ({ instanceId, workflow, onTested }: { instanceId: string; workflow: AdminWorkflow; onTested: (id: string) => void }) => {
  const { m } = useMessages();
  return (
    <Box paddingTop={3} data-skill={workflow.skillName}>
      <Flex justifyContent="space-between" alignItems="center" gap={2}>
        <Typography variant="sigma" textColor="neutral600">
          {m('skill.name', 'Skill name (MCP tool)')}
        </Typography>
        <CopyButton value={workflow.skillName} label={m('skill.name.copy', 'Copy name')} />
      </Flex>
      <Mono data-skill-name="">{workflow.skillName}</Mono>
      <Box paddingTop={2}>
        <Typography variant="pi" textColor={workflow.description ? 'neutral800' : 'neutral600'} tag="p" data-skill-description="">
          {workflow.description ?? m('skill.description.none', 'No description: agents see only the name. Add one with Edit.')}
        </Typography>
      </Box>
      {workflow.inputSchema ? (
        <Box paddingTop={2}>
          <details>
            <summary>
              <Typography variant="pi" fontWeight="semiBold">
                {m('skill.schema', 'Input schema')}
              </Typography>
            </summary>
            <Box tag="pre" background="neutral100" hasRadius padding={2} style={{ whiteSpace: 'pre-wrap', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: '1.2rem', margin: 0 }} data-skill-schema="">
              {JSON.stringify(workflow.inputSchema, null, 2)}
            </Box>
          </details>
        </Box>
      ) : (
        <Typography variant="pi" textColor="neutral600" tag="p">
          {m('skill.schema.none', 'No input schema: any input is accepted.')}
        </Typography>
      )}
      {workflow.enabled ? <TryIt instanceId={instanceId} workflow={workflow} onTested={onTested} /> : null}
    </Box>
  );
};

const TryIt = ({ instanceId, workflow, onTested }: { instanceId: string; workflow: AdminWorkflow; onTested: (id: string) => void }) => {
  const { m } = useMessages();
  const { get: getKey } = useFetchKey();
  const fields = formFields(workflow.inputSchema);
  const [values, setValues] = React.useState<Record<string, string | boolean>>({});
  const [json, setJson] = React.useState('{}');
  const [result, setResult] = React.useState<{ ok: boolean; text: string } | null>(null);
  const [sending, setSending] = React.useState(false);
  const set = (name: string, value: string | boolean) => setValues((old) => ({ ...old, [name]: value }));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    let input: unknown;
    if (fields) {
      const built = inputOf(fields, values);
      if (built.error) return setResult({ ok: false, text: built.error });
      input = built.input;
    } else {
      try {
        input = JSON.parse(json);
      } catch (error) {
        return setResult({ ok: false, text: m('skill.try.invalidJson', 'Not valid JSON: {reason}', { reason: (error as Error).message }) });
      }
    }
    setSending(true);
    try {
      const key = await getKey(instanceId);
      if (!key) return;
      const { status, body } = await triggerFromPanel(instanceId, workflow.id, key, input);
      if (status !== 202 || !body?.data) {
        setResult({ ok: false, text: m('skill.try.refused', '{status}: {message}', { status, message: body?.error?.message ?? '' }) });
        return;
      }
      setResult({ ok: true, text: m('skill.try.sent', 'Started execution {id}', { id: body.data.executionId }) });
      onTested(body.data.executionId);
    } finally {
      setSending(false);
    }
  };

  return (
    <Box paddingTop={3}>
      <form onSubmit={submit} aria-label={m('skill.try', 'Try it')} data-try-it="">
        <Box tag="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
          <Typography tag="legend" variant="sigma" textColor="neutral600">
            {m('skill.try', 'Try it')}
          </Typography>
          <Flex direction="column" alignItems="stretch" gap={3} paddingTop={2}>
            {fields ? (
              fields.map((field) =>
                field.kind === 'boolean' ? (
                  <Field.Root key={field.name} name={field.name} hint={field.description}>
                    <Field.Label>{field.name}</Field.Label>
                    <Switch
                      aria-label={field.name}
                      checked={Boolean(values[field.name])}
                      onCheckedChange={(checked: boolean) => set(field.name, checked)}
                      onLabel={m('on', 'On')}
                      offLabel={m('off', 'Off')}
                      visibleLabels
                    />
                    <Field.Hint />
                  </Field.Root>
                ) : field.kind === 'json' ? (
                  <Field.Root key={field.name} name={field.name} required={field.required} hint={field.description ?? m('skill.try.jsonHint', 'JSON')}>
                    <Field.Label>{field.name}</Field.Label>
                    <Textarea rows={3} value={String(values[field.name] ?? '')} onChange={(e: React.ChangeEvent<HTMLTextAreaElement>) => set(field.name, e.target.value)} />
                    <Field.Hint />
                  </Field.Root>
                ) : (
                  <Field.Root key={field.name} name={field.name} required={field.required} hint={field.description}>
                    <Field.Label>{field.name}</Field.Label>
                    <TextInput
                      type={field.kind === 'string' ? 'text' : 'number'}
                      step={field.kind === 'integer' ? 1 : 'any'}
                      value={String(values[field.name] ?? '')}
                      onChange={(e: React.ChangeEvent<HTMLInputElement>) => set(field.name, e.target.value)}
                    />
                    <Field.Hint />
                  </Field.Root>
                ),
              )
            ) : (
              <Field.Root name="input" hint={m('skill.try.inputHint', 'The input, as JSON (sent as the payload).')}>
                <Field.Label>{m('skill.try.input', 'Input')}</Field.Label>
                <Textarea rows={4} value={json} onChange={(e: React.ChangeEvent<HTMLTextAreaElement>) => setJson(e.target.value)} style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' }} />
                <Field.Hint />
              </Field.Root>
            )}
            <Flex gap={2}>
              <Button type="submit" size="S" variant="secondary" startIcon={<Play />} loading={sending}>
                {m('skill.try.run', 'Run')}
              </Button>
            </Flex>
            {result ? (
              <Typography textColor={result.ok ? 'success600' : 'danger600'} role={result.ok ? 'status' : 'alert'} data-try-result="">
                {result.text}
              </Typography>
            ) : null}
          </Flex>
        </Box>
      </form>
    </Box>
  );
};

/** The MCP client configuration an organization's agents paste (the key left as a placeholder). */
export const mcpConfig = (mcpUrl: string, name: string) =>
  JSON.stringify(
    {
      mcpServers: {
        [`quire-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'skills'}`]: {
          type: 'http',
          url: mcpUrl,
          headers: { 'X-Process-Manager-Key': 'cko_YOUR_ORGANIZATION_KEY' },
        },
      },
    },
    null,
    2,
  );

export const McpConfiguration = ({ mcpUrl, organizationName }: { mcpUrl: string; organizationName: string }) => {
  const { m } = useMessages();
  return (
    <CodeSample title={m('mcp.title', 'MCP client configuration')} code={mcpConfig(mcpUrl, organizationName)} data-mcp-config="">
      <Box paddingBottom={2}>
        <Typography variant="pi" textColor="neutral600" tag="p">
          {m('mcp.about', 'Agents connect with an organization key and see each enabled workflow as a tool (its skill name). Replace cko_YOUR_ORGANIZATION_KEY with one of the organization\'s keys (its page creates them); GET /api/skills lists the same skills over HTTP.')}
        </Typography>
      </Box>
    </CodeSample>
  );
};
