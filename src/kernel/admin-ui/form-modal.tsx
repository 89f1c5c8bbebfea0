import { Button, Modal } from '@strapi/design-system';
import * as React from 'react';

/**
 * The footer of a form in a modal, the same in both plugins' pages: a tertiary Cancel that
 * closes the modal (or calls `onCancel`), and the form's submit button, busy while it runs.
 * Render it inside the modal's `<form>`.
 */
export const FormModalFooter = ({
  cancel,
  submit,
  busy,
  disabled,
  onCancel,
}: {
  cancel: React.ReactNode;
  submit: React.ReactNode;
  busy?: boolean;
  disabled?: boolean;
  /** Instead of closing the modal itself (the modal's owner closes it). */
  onCancel?: () => void;
}) => (
  <Modal.Footer>
    {onCancel ? (
      <Button variant="tertiary" onClick={onCancel}>
        {cancel}
      </Button>
    ) : (
      <Modal.Close>
        <Button variant="tertiary">{cancel}</Button>
      </Modal.Close>
    )}
    <Button type="submit" loading={busy} disabled={disabled}>
      {submit}
    </Button>
  </Modal.Footer>
);
