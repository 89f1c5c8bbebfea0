/** Copying, code samples, and secrets shown once. */
import { Box, Button, Dialog, Flex, Typography } from '@strapi/design-system';
import { Duplicate } from '@strapi/icons';
import { useClipboard } from '@strapi/strapi/admin';
import * as React from 'react';
import { useMessages } from '../messages';

/** Copies `value` and says so. */
export const CopyButton = ({ value, label, size = 'S' }: { value: string; label: string; size?: 'S' | 'M' }) => {
  const { copy } = useClipboard();
  const { m, notify } = useMessages();
  return (
    <Button
      variant="tertiary"
      size={size}
      startIcon={<Duplicate />}
      onClick={async () => {
        const copied = await copy(value);
        if (copied) notify.success(m('copy.done', 'Copied to the clipboard'));
        else notify.warning(m('copy.failed', 'Could not copy: select the text and copy it yourself'));
      }}
    >
      {label}
    </Button>
  );
};

/** Text in a monospace box that wraps anywhere (keys, URLs, code). */
export const Mono = ({ children, ...rest }: { children: React.ReactNode } & Record<string, unknown>) => (
  <Box
    tag="code"
    background="neutral100"
    hasRadius
    padding={2}
    style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: '1.3rem', overflowWrap: 'anywhere', wordBreak: 'break-all', display: 'block' }}
    {...rest}
  >
    {children}
  </Box>
);

/** A code sample with its copy button. */
export const CodeSample = ({ title, code, children, ...rest }: { title: string; code: string; children?: React.ReactNode } & Record<string, unknown>) => {
  const { m } = useMessages();
  return (
    <Box {...rest}>
      <Flex justifyContent="space-between" alignItems="center" gap={2} paddingBottom={1}>
        <Typography variant="omega" fontWeight="semiBold">
          {title}
        </Typography>
        <CopyButton value={code} label={m('copy', 'Copy')} />
      </Flex>
      {children}
      <Box
        tag="pre"
        background="neutral800"
        hasRadius
        padding={3}
        style={{ color: '#f6f6f9', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: '1.2rem', whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: 0 }}
      >
        {code}
      </Box>
    </Box>
  );
};

/**
 * A secret the server will never show again (an organization key, a signing secret): the
 * secret, a copy button and the warning, until the admin closes the dialog.
 */
export const SecretOnceDialog = ({ title, secret, onClose }: { title: string; secret: string | null; onClose: () => void }) => {
  const { m } = useMessages();
  return (
    <Dialog.Root open={secret !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Content>
        <Dialog.Header>{title}</Dialog.Header>
        <Dialog.Body>
          <Flex direction="column" alignItems="stretch" gap={3} width="100%">
            <Warning title={m('secret.once.title', 'Shown this once only')}>
              {m('secret.once.warning', 'Copy it now and keep it somewhere safe: Quire stores only a hash or a sealed copy and will never show it again.')}
            </Warning>
            <Mono data-secret-once="">{secret}</Mono>
          </Flex>
        </Dialog.Body>
        <Dialog.Footer>
          {secret ? <CopyButton value={secret} label={m('copy', 'Copy')} size="M" /> : null}
          <Dialog.Cancel>
            <Button variant="secondary">{m('secret.once.done', 'I have copied it')}</Button>
          </Dialog.Cancel>
        </Dialog.Footer>
      </Dialog.Content>
    </Dialog.Root>
  );
};

/** A button that asks first (Strapi's ConfirmDialog): revoke, regenerate, delete. */
export const ConfirmButton = ({
  label,
  title,
  body,
  confirm,
  onConfirm,
  variant = 'danger-light',
  size = 'S',
  disabled,
  ...rest
}: {
  label: string;
  title: string;
  body: string;
  confirm: string;
  onConfirm: () => Promise<unknown> | void;
  variant?: 'danger-light' | 'danger' | 'secondary' | 'tertiary';
  size?: 'S' | 'M';
  disabled?: boolean;
} & Record<string, unknown>) => {
  const [open, setOpen] = React.useState(false);
  const { m } = useMessages();
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger>
        <Button variant={variant} size={size} disabled={disabled} {...rest}>
          {label}
        </Button>
      </Dialog.Trigger>
      <Dialog.Content>
        <Dialog.Header>{title}</Dialog.Header>
        <Dialog.Body>
          <Typography textAlign="center">{body}</Typography>
        </Dialog.Body>
        <Dialog.Footer>
          <Dialog.Cancel>
            <Button variant="tertiary" fullWidth>
              {m('cancel', 'Cancel')}
            </Button>
          </Dialog.Cancel>
          <Button
            variant="danger"
            fullWidth
            onClick={async () => {
              await onConfirm();
              setOpen(false);
            }}
          >
            {confirm}
          </Button>
        </Dialog.Footer>
      </Dialog.Content>
    </Dialog.Root>
  );
};

/** Starts with a heading; the page's sections. */
export const Section = ({ title, actions, children, ...rest }: { title: string; actions?: React.ReactNode; children: React.ReactNode } & Record<string, unknown>) => (
  <Box tag="section" background="neutral0" hasRadius shadow="tableShadow" padding={{ initial: 4, medium: 6 }} aria-label={title} {...rest}>
    <Flex justifyContent="space-between" alignItems="center" gap={2} wrap="wrap" paddingBottom={4}>
      <Typography tag="h2" variant="delta">
        {title}
      </Typography>
      {actions ? <Flex gap={2} wrap="wrap">{actions}</Flex> : null}
    </Flex>
    {children}
  </Box>
);

/** A warning in the flow of the page (Strapi's Alert always has a close button). */
export const Warning = ({ title, children }: { title?: string; children: React.ReactNode }) => (
  <Box role="note" background="warning100" borderColor="warning200" borderStyle="solid" borderWidth="1px" hasRadius padding={3}>
    {title ? (
      <Typography variant="omega" fontWeight="bold" textColor="warning700" tag="p">
        {title}
      </Typography>
    ) : null}
    <Typography variant="omega" textColor="warning700" tag="p">
      {children}
    </Typography>
  </Box>
);
