/**
 * Articles from the panel (issue 23 point 5 and 6): create (a title, an owner, optional
 * Markdown), rename, delete to the trash (asked first; restorable for 30 days from the Trash
 * page), "Changed since published", and a preview of the public page. Used by the list page
 * and the canvas's header; they call the admin routes /quire/articles, /quire/trash, /quire/users
 * and /quire/articles/{id}/preview (server routes/admin.ts, called through api/articles.ts), behind Quire's RBAC actions.
 */
import { Badge, Box, Button, Combobox, ComboboxOption, Dialog, Field, Flex, Modal, Textarea, TextInput, Typography } from '@strapi/design-system';
import { Eye, Pencil, Trash } from '@strapi/icons';
import { useDebounce } from '@strapi/strapi/admin';
import * as React from 'react';
import { FormModalFooter } from '#kernel/admin-ui/form-modal';
import { useAdminMutation } from '#kernel/admin-ui/use-admin-mutation';
import type { Message } from '#kernel/admin-ui/use-messages';
import { useArticlesApi, useUsers } from '../api/articles';
import type { AdminArticleDetail, AdminPreview } from '../api/schema-types';
import { useMessages } from '../messages';

/** The title's limit (server schemas/inputs.ts LIMITS.title). */
const TITLE_MAX = 300;

/** "Changed since published": the public page is older than the article (republish to update it). */
export const ChangedBadge = ({ article }: { article: { changedSincePublished?: boolean } }) => {
  const { m } = useMessages();
  if (!article.changedSincePublished) return null;
  return (
    <Badge backgroundColor="warning100" textColor="warning700" data-changed-since-published="true" title={m('article.changed.hint', 'The public page is older than the article: republish to update it.')}>
      {m('article.changed', 'Changed since published')}
    </Badge>
  );
};

/** The title field: required, refused here in words when empty. */
const TitleField = ({ value, error, onChange }: { value: string; error?: string; onChange: (value: string) => void }) => {
  const { m } = useMessages();
  return (
    <Field.Root name="title" required error={error} hint={m('article.form.title.hint', 'Shown in the list and as the public page\'s heading.')}>
      <Field.Label>{m('article.form.title', 'Title')}</Field.Label>
      <TextInput value={value} maxLength={TITLE_MAX} onChange={(e: React.ChangeEvent<HTMLInputElement>) => onChange(e.target.value)} autoFocus />
      <Field.Error />
      <Field.Hint />
    </Field.Root>
  );
};

const titleProblem = (title: string, m: Message) => (title.trim() ? undefined : m('article.form.title.empty', 'Give the article a title: it cannot be empty.'));

/** The users an article can belong to, searched on the server as one types. */
const OwnerField = ({ value, error, onChange }: { value: string; error?: string; onChange: (value: string) => void }) => {
  const { m } = useMessages();
  const [typed, setTyped] = React.useState('');
  const search = useDebounce(typed, 250);
  const { data, isLoading } = useUsers(search);
  const users = data?.data ?? [];
  return (
    <Field.Root name="owner" required error={error} hint={m('article.form.owner.hint', 'The user it belongs to: their keys and agents reach it through the API.')}>
      <Field.Label>{m('article.form.owner', 'Owner')}</Field.Label>
      <Combobox
        value={value}
        loading={isLoading}
        autocomplete={{ type: 'list', filter: 'contains' }}
        onInputChange={(event: React.ChangeEvent<HTMLInputElement>) => setTyped(event.currentTarget.value)}
        onChange={(next?: string) => onChange(next ?? '')}
        placeholder={m('article.form.owner.placeholder', 'Pick a user')}
      >
        <ComboboxOption value="me" textValue={m('article.form.owner.me', 'Me (under my own name)')}>
          {m('article.form.owner.me', 'Me (under my own name)')}
        </ComboboxOption>
        {users.map((user) => (
          <ComboboxOption key={user.id} value={String(user.id)} textValue={`${user.username} (${user.email})`}>
            {`${user.username} (${user.email})`}
          </ComboboxOption>
        ))}
      </Combobox>
      <Field.Error />
      <Field.Hint />
    </Field.Root>
  );
};

/** "New article": a title (required), the owner, optional Markdown to start from. Opens the canvas once made. */
export const NewArticleButton = ({ onCreated }: { onCreated: (article: AdminArticleDetail) => void }) => {
  const { m, notify } = useMessages();
  const articles = useArticlesApi();
  const { run, busy } = useAdminMutation();
  const [open, setOpen] = React.useState(false);
  const [title, setTitle] = React.useState('');
  // Editors write under their own name unless they pick someone (issue 36 point 2).
  const [owner, setOwner] = React.useState('me');
  const [markdown, setMarkdown] = React.useState('');
  const [errors, setErrors] = React.useState<{ title?: string; owner?: string; markdown?: string }>({});

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const problems = {
      title: titleProblem(title, m),
      owner: owner ? undefined : m('article.form.owner.empty', 'Pick the user it belongs to.'),
    };
    setErrors(problems);
    if (problems.title || problems.owner) return;
    const { data: created, error, problem } = await run(() => articles.create({ title: title.trim(), owner: owner === 'me' ? 'me' : Number(owner), ...(markdown.trim() ? { markdown } : {}) }), {
      quiet: true,
      success: (article) => m('article.created', '"{title}" created', { title: article.title }),
    });
    if (created) {
      setOpen(false);
      setTitle('');
      setMarkdown('');
      onCreated(created);
      return;
    }
    // A refused field shows at the field; anything else in a toast.
    const message = problem?.message;
    if (message && /^title/i.test(message)) setErrors({ title: message });
    else if (message && /^markdown/i.test(message)) setErrors({ markdown: message });
    else if (error) notify.danger(error);
  };

  return (
    <Modal.Root open={open} onOpenChange={setOpen}>
      <Modal.Trigger>
        <Button startIcon={<Pencil />}>{m('article.new', 'New article')}</Button>
      </Modal.Trigger>
      <Modal.Content data-testid="new-article">
        <form onSubmit={submit} noValidate>
          <Modal.Header>
            <Modal.Title>{m('article.new.title', 'New article')}</Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <Flex direction="column" alignItems="stretch" gap={4}>
              <TitleField value={title} error={errors.title} onChange={setTitle} />
              <OwnerField value={owner} error={errors.owner} onChange={setOwner} />
              <Field.Root name="markdown" error={errors.markdown} hint={m('article.form.markdown.hint', 'Optional. Split into sections at its top-level headings; leave it empty for one empty section.')}>
                <Field.Label>{m('article.form.markdown', 'Markdown to start from')}</Field.Label>
                <Textarea value={markdown} onChange={(e: React.ChangeEvent<HTMLTextAreaElement>) => setMarkdown(e.target.value)} />
                <Field.Error />
                <Field.Hint />
              </Field.Root>
            </Flex>
          </Modal.Body>
          <FormModalFooter cancel={m('review.cancel', 'Cancel')} submit={m('article.create', 'Create')} busy={busy} />
        </form>
      </Modal.Content>
    </Modal.Root>
  );
};

/** Renaming: the title, required (refused at the field when empty). */
export const RenameDialog = ({ article, onClose, onRenamed }: { article: { id: string; title: string }; onClose: () => void; onRenamed: (article: AdminArticleDetail) => void }) => {
  const { m, notify } = useMessages();
  const articles = useArticlesApi();
  const { run, busy } = useAdminMutation();
  const [title, setTitle] = React.useState(article.title);
  const [error, setError] = React.useState<string | undefined>();
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const problem = titleProblem(title, m);
    setError(problem);
    if (problem) return;
    const { data: renamed, error: failure, problem: refused } = await run(() => articles.rename(article.id, title.trim()), {
      quiet: true,
      success: (done) => m('article.renamed', 'Renamed to "{title}"', { title: done.title }),
    });
    if (renamed) {
      onRenamed(renamed);
      onClose();
    } else if (refused?.message && /^title/i.test(refused.message)) setError(refused.message);
    else if (failure) notify.danger(failure);
  };
  return (
    <Modal.Root open onOpenChange={(open: boolean) => !open && onClose()}>
      <Modal.Content data-testid="rename-article">
        <form onSubmit={submit} noValidate>
          <Modal.Header>
            <Modal.Title>{m('article.rename.title', 'Rename "{title}"', { title: article.title })}</Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <TitleField value={title} error={error} onChange={setTitle} />
          </Modal.Body>
          <FormModalFooter cancel={m('review.cancel', 'Cancel')} submit={m('article.rename', 'Rename')} busy={busy} onCancel={onClose} />
        </form>
      </Modal.Content>
    </Modal.Root>
  );
};

/** Deleting asks first: the article goes to the trash, restorable for 30 days. */
export const DeleteDialog = ({ article, onClose, onDeleted }: { article: { id: string; title: string }; onClose: () => void; onDeleted: () => void }) => {
  const { m } = useMessages();
  const articles = useArticlesApi();
  const { run, busy } = useAdminMutation();
  const confirm = async () => {
    const { data: deleted } = await run(() => articles.remove(article.id), {
      success: m('article.deleted', '"{title}" is in the trash: restore it from Trash within 30 days.', { title: article.title }),
    });
    if (!deleted) return;
    onDeleted();
    onClose();
  };
  return (
    <Dialog.Root open onOpenChange={(open: boolean) => !open && onClose()}>
      <Dialog.Content data-testid="delete-article">
        <Dialog.Header>{m('article.delete.title', 'Delete "{title}"?', { title: article.title })}</Dialog.Header>
        <Dialog.Body>
          <Typography>
            {m('article.delete.body', 'It goes to the trash with its sections, notes and history, and its public page goes down. You can restore it from Trash for 30 days; after that it is deleted for good.')}
          </Typography>
        </Dialog.Body>
        <Dialog.Footer>
          <Button variant="tertiary" onClick={onClose}>
            {m('review.cancel', 'Cancel')}
          </Button>
          <Button variant="danger-light" startIcon={<Trash />} onClick={confirm} loading={busy}>
            {m('article.delete.confirm', 'Move to the trash')}
          </Button>
        </Dialog.Footer>
      </Dialog.Content>
    </Dialog.Root>
  );
};

/** Rename and Delete of one article (a list row, or the canvas's header), each shown when the role allows it. */
export const ArticleActions = ({
  article,
  canEdit,
  canDelete,
  compact = false,
  onRenamed,
  onDeleted,
}: {
  article: { id: string; title: string };
  canEdit: boolean;
  canDelete: boolean;
  /** Small ghost buttons (a list row) rather than the canvas header's. */
  compact?: boolean;
  onRenamed: (article: AdminArticleDetail) => void;
  onDeleted: () => void;
}) => {
  const { m } = useMessages();
  const [dialog, setDialog] = React.useState<'rename' | 'delete' | null>(null);
  const renameLabel = m('article.rename.label', 'Rename "{title}"', { title: article.title });
  const deleteLabel = m('article.delete.label', 'Delete "{title}"', { title: article.title });
  return (
    <Flex gap={1} onClick={(event: React.MouseEvent) => event.stopPropagation()}>
      {/* Labelled buttons (the title only in aria-label): an icon button's hidden label would repeat the title as text in the row. */}
      {canEdit ? (
        <Button size={compact ? 'S' : 'M'} variant={compact ? 'ghost' : 'tertiary'} startIcon={<Pencil />} onClick={() => setDialog('rename')} aria-label={renameLabel}>
          {m('article.rename', 'Rename')}
        </Button>
      ) : null}
      {canDelete ? (
        <Button size={compact ? 'S' : 'M'} variant={compact ? 'ghost' : 'danger-light'} startIcon={<Trash />} onClick={() => setDialog('delete')} aria-label={deleteLabel}>
          {m('article.delete', 'Delete')}
        </Button>
      ) : null}
      {dialog === 'rename' ? <RenameDialog article={article} onClose={() => setDialog(null)} onRenamed={onRenamed} /> : null}
      {dialog === 'delete' ? <DeleteDialog article={article} onClose={() => setDialog(null)} onDeleted={onDeleted} /> : null}
    </Flex>
  );
};

/**
 * "Preview": the public page the article would have if published now (the public template,
 * noindex), in a sandboxed frame: no script runs, nothing is published.
 */
export const PreviewButton = ({ articleId, version }: { articleId: string; version?: string }) => {
  const { m } = useMessages();
  const articles = useArticlesApi();
  const { run, busy } = useAdminMutation();
  const [page, setPage] = React.useState<AdminPreview | null>(null);
  const open = async () => {
    const { data } = await run(() => articles.preview(articleId));
    if (data) setPage(data);
  };
  return (
    <>
      <Button variant="tertiary" startIcon={<Eye />} onClick={open} loading={busy} data-version={version}>
        {m('article.preview', 'Preview')}
      </Button>
      {page ? (
        <Modal.Root open onOpenChange={(isOpen: boolean) => !isOpen && setPage(null)}>
          <Modal.Content style={{ maxWidth: '110rem', width: 'calc(100vw - 2rem)' }} data-testid="preview">
            <Modal.Header>
              <Modal.Title>{m('article.preview.title', 'Preview of the public page')}</Modal.Title>
            </Modal.Header>
            <Modal.Body>
              <Flex direction="column" alignItems="stretch" gap={2}>
                <Typography variant="pi" textColor="neutral600">
                  {m('article.preview.hint', 'As it would be at {url} if you published now. Nothing is published until you do.', { url: page.url })}
                </Typography>
                <Box hasRadius borderColor="neutral200" borderStyle="solid" borderWidth="1px" overflow="hidden">
                  <iframe title={m('article.preview.frame', 'Public page preview')} sandbox="" srcDoc={page.html} style={{ width: '100%', height: '70vh', border: 0, background: '#fff' }} />
                </Box>
              </Flex>
            </Modal.Body>
            <Modal.Footer>
              <Modal.Close>
                <Button variant="tertiary">{m('review.close', 'Close')}</Button>
              </Modal.Close>
            </Modal.Footer>
          </Modal.Content>
        </Modal.Root>
      ) : null}
    </>
  );
};
