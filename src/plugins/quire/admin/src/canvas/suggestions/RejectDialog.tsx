/** Rejecting a suggestion: an optional reason, returned to whoever made it (the suggestion's `reason`, CONTRACT 20). */
import { Button, Field, Modal, Textarea, Typography } from '@strapi/design-system';
import * as React from 'react';
import { useMessages } from '../../messages';

/** The reject route's limit on a reason (server schemas/inputs.ts `rejectSuggestionInput`). */
const REASON_MAX = 2_000;

/** `here`: rejecting only this section's part of it (the rest stays pending). */
export const RejectDialog = ({ busy, here = false, onCancel, onReject }: { busy: boolean; here?: boolean; onCancel: () => void; onReject: (reason: string | null) => void }) => {
  const { m } = useMessages();
  const [reason, setReason] = React.useState('');
  return (
    <Modal.Root open onOpenChange={(open: boolean) => !open && onCancel()}>
      <Modal.Content style={{ maxWidth: '56rem', width: 'calc(100vw - 2rem)' }} data-testid="reject-dialog">
        <Modal.Header>
          <Modal.Title>{here ? m('review.rejectHere.title', 'Reject this suggestion in this section?') : m('review.reject.title', 'Reject this suggestion?')}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {here ? (
            <Typography tag="p" textColor="neutral700" style={{ marginBottom: '1rem' }}>
              {m('review.rejectHere.hint', 'Only its changes to this section are rejected; its changes to other sections stay pending.')}
            </Typography>
          ) : null}
          <Field.Root name="reason" hint={m('review.reject.hint', 'Optional. Returned to whoever made the suggestion, so they can do better next time.')}>
            <Field.Label>{m('review.reject.reason', 'Reason')}</Field.Label>
            <Textarea value={reason} maxLength={REASON_MAX} onChange={(e: React.ChangeEvent<HTMLTextAreaElement>) => setReason(e.target.value)} />
            <Field.Hint />
          </Field.Root>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="tertiary" onClick={onCancel}>
            {m('review.cancel', 'Cancel')}
          </Button>
          <Button variant="danger" onClick={() => onReject(reason.trim() || null)} loading={busy}>
            {m('review.reject', 'Reject')}
          </Button>
        </Modal.Footer>
      </Modal.Content>
    </Modal.Root>
  );
};
