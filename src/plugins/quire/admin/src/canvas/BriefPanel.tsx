/**
 * The Brief beside the article: the premise, and the notes (kind as a coloured tag, title,
 * body, url) to add, edit and delete. Nothing is saved by hand (CONTRACT 18, 19): the premise
 * is bound to the live document's Y.Text `premise` (minimal diffs; the server stores it with a
 * revision), and a note's dialog saves what is typed after a short pause. Notes written here
 * are `human`. Note writes are conditional (If-Match with the ETag read when the editor opened
 * it, then the one each save returned): a note an agent changed meanwhile is not overwritten;
 * autosave stops, the editor keeps their text, sees the current version, and reloads it or
 * saves theirs over it. The notes are read again when the live document says they changed.
 * Without the live document (the channel unavailable) the premise has a Save button.
 * Undo (canvas/undo.ts): the premise's typing and each note's save are steps of the article's
 * one history; a note's undo goes through the notes API, conditional like every note write.
 */
import { Badge, Box, Button, Dialog, Field, Flex, IconButton, SingleSelect, SingleSelectOption, TextInput, Textarea, Typography } from '@strapi/design-system';
import type * as Y from 'yjs';
import { Pencil, Plus, Trash } from '@strapi/icons';
import { ConfirmDialog } from '@strapi/strapi/admin';
import * as React from 'react';
import { useAdminMutation } from '#kernel/admin-ui/use-admin-mutation';
import { useConditionalMutation } from '#kernel/admin-ui/use-conditional-mutation';
import { ifMatch, isConflict } from '#kernel/admin-ui/fetch';
import type { NoteKind, NoteRecord } from '../api';
import { useNotesApi } from '../api/notes';
import { useMessages } from '../messages';
import { applyTextDiff } from './live';
import { NoteBody } from './NoteBody';
import { PREMISE_ORIGIN, UndoRefused, useArticleHistory, type HistoryStep } from './undo';

/** How long after the last keystroke a note is saved. */
export const NOTE_AUTOSAVE_MS = 800;

const KINDS: NoteKind[] = ['source', 'decision', 'idea', 'question'];
const KIND_COLOURS: Record<NoteKind, { backgroundColor: string; textColor: string }> = {
  source: { backgroundColor: 'primary100', textColor: 'primary700' },
  decision: { backgroundColor: 'success100', textColor: 'success700' },
  idea: { backgroundColor: 'warning100', textColor: 'warning700' },
  question: { backgroundColor: 'danger100', textColor: 'danger700' },
};

interface Brief {
  premise: string | null;
  notes: NoteRecord[];
}

interface Draft {
  kind: NoteKind;
  title: string;
  body: string;
  url: string;
}

const EMPTY: Draft = { kind: 'idea', title: '', body: '', url: '' };
const draftOf = (note: NoteRecord): Draft => ({ kind: note.kind, title: note.title, body: note.body ?? '', url: note.url ?? '' });

/** A note's fields as the notes API takes them. */
type NoteFields = { kind: NoteKind; title: string; body: string | null; url: string | null };
const fieldsOf = (draft: Draft): NoteFields => ({ kind: draft.kind, title: draft.title.trim(), body: draft.body.trim() || null, url: draft.url.trim() || null });

/**
 * A note as the undo history knows it: its anchor (a note put back by undo is a new note, with a
 * new anchor, which the older steps follow) and the ETag of this person's last write, sent as
 * If-Match so that undo never writes over someone else's change.
 */
interface NoteRef {
  anchor: string;
  etag: string | null;
}

/** The note open in the dialog: its anchor (null for a new one), the ETag it was read with, the editor's text. */
interface NoteEditing {
  anchor: string | null;
  etag: string | null;
  draft: Draft;
  /** After a refused save: the note as it is now, and its ETag (autosave waits for the editor's choice). */
  theirs?: { note: NoteRecord; etag: string | null };
  /** The draft as last saved (nothing to save while it matches). */
  saved?: Draft;
}

export const KindTag = ({ kind }: { kind: NoteKind }) => {
  const { m } = useMessages();
  return (
    <Badge {...KIND_COLOURS[kind]} data-kind={kind}>
      {m(`note.kind.${kind}`, kind)}
    </Badge>
  );
};

/** Where a change ends in the text (the caret after this person's undo or redo). */
const changeEnd = (delta: Array<{ retain?: number; insert?: unknown; delete?: number }>) => {
  let position = 0;
  let end = 0;
  for (const op of delta) {
    if (op.retain) position += op.retain;
    else if (typeof op.insert === 'string') end = position += op.insert.length;
    else if (op.delete) end = position;
  }
  return end;
};

/** Where the caret goes when a Y.Text changes under it (the delta of someone else's edit). */
const mapCaret = (delta: Array<{ retain?: number; insert?: unknown; delete?: number }>, caret: number) => {
  let position = 0;
  let moved = caret;
  for (const op of delta) {
    if (op.retain) position += op.retain;
    else if (typeof op.insert === 'string') {
      if (position <= caret) moved += op.insert.length;
      position += op.insert.length;
    } else if (op.delete) {
      if (position < caret) moved -= Math.min(op.delete, caret - position);
    }
  }
  return Math.max(0, moved);
};

/** The premise bound to the live document's Y.Text: what is typed goes as a minimal diff; what others type arrives with the caret kept. */
const LivePremise = ({ doc, canEdit, label, hint }: { doc: Y.Doc; canEdit: boolean; label: string; hint: string }) => {
  const ref = React.useRef<HTMLTextAreaElement>(null);
  const lastRef = React.useRef('');
  React.useEffect(() => {
    const text = doc.getText('premise');
    const element = ref.current;
    if (!element) return;
    // defaultValue too: the text is then the element's content, as a controlled textarea's is.
    element.defaultValue = element.value = lastRef.current = text.toString();
    const observer = (event: Y.YTextEvent) => {
      // What is typed here is in the textarea already.
      if (event.transaction.origin === PREMISE_ORIGIN) return;
      const focused = document.activeElement === element;
      const [start, end] = [element.selectionStart, element.selectionEnd];
      const delta = event.delta as Array<{ retain?: number; insert?: unknown; delete?: number }>;
      element.defaultValue = element.value = lastRef.current = text.toString();
      if (event.transaction.local) {
        // This person's undo or redo (canvas/undo.ts), pressed wherever: show it, the caret where it changed.
        const at = changeEnd(delta);
        element.focus({ preventScroll: true });
        element.setSelectionRange(at, at);
        element.scrollIntoView({ behavior: 'smooth', block: 'center' });
      } else if (focused) element.setSelectionRange(mapCaret(delta, start), mapCaret(delta, end));
    };
    text.observe(observer);
    return () => text.unobserve(observer);
  }, [doc]);
  const typed = () => {
    const element = ref.current;
    if (!element) return;
    applyTextDiff(doc.getText('premise'), lastRef.current, element.value, PREMISE_ORIGIN);
    lastRef.current = element.value;
  };
  return (
    <Field.Root name="premise" hint={hint}>
      <Field.Label>{label}</Field.Label>
      <Textarea ref={ref} onChange={typed} disabled={!canEdit} data-live-premise />
      <Field.Hint />
    </Field.Root>
  );
};

interface BriefProps {
  articleId: string;
  canEdit: boolean;
  /** The article's live document, once synced; null without it. */
  live: Y.Doc | null;
  /** The live document's `meta.notesRev`: the notes are read again when it changes. */
  notesRev?: unknown;
}

export const BriefPanel = ({ articleId, canEdit, live, notesRev }: BriefProps) => {
  const { m, notify } = useMessages();
  const notes = useNotesApi(articleId);
  const mutation = useAdminMutation();
  const [brief, setBrief] = React.useState<Brief | null>(null);
  const [premise, setPremise] = React.useState('');
  const [editing, setEditing] = React.useState<NoteEditing | null>(null);
  const [doomed, setDoomed] = React.useState<{ note: NoteRecord; etag: string | null } | null>(null);
  /** The anchor of the note being written (what a refused write reads again). */
  const writingRef = React.useRef('');
  const noteWrite = useConditionalMutation({ read: () => notes.read(writingRef.current) });
  const noteRemoval = useConditionalMutation({
    read: () => notes.read(writingRef.current),
    conflictMessage: () =>
      m('brief.note.deleteConflict', 'The note "{title}" changed after you asked to delete it, so it was kept. Read it again, then delete it if you still want to.', {
        title: doomed?.note.title ?? '',
      }),
  });
  /** A note's save, from the write to the new ETag read after it (the dialog says "Saving…" meanwhile). */
  const [saving, setSaving] = React.useState(false);
  const busy = saving || mutation.busy || noteRemoval.busy;

  const fail = notify.failure;

  // Undo across the article (canvas/undo.ts): each note's save, addition and deletion is a step
  // on this person's history, undone through the notes API; one dialog's saves are one step.
  const history = useArticleHistory();
  const refs = React.useRef(new Map<string, NoteRef>());
  const dialogRef = React.useRef(0);
  const refOf = (anchor: string, etag: string | null) => {
    const ref = refs.current.get(anchor) ?? { anchor, etag };
    ref.etag = etag;
    refs.current.set(anchor, ref);
    return ref;
  };
  /** Runs an undo or redo of a note, then shows the notes as they are, that note in view. */
  const noteStep = async (ref: NoteRef, title: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (problem) {
      if (isConflict(problem)) throw new UndoRefused(m('brief.note.undoConflict', 'The note "{title}" was changed by someone else since, so it was kept as it is.', { title }));
      if ((problem as { status?: number } | null)?.status === 404) throw new UndoRefused(m('brief.note.undoGone', 'The note "{title}" was deleted since.', { title }));
      throw problem;
    } finally {
      await load().catch(() => undefined);
    }
    window.requestAnimationFrame(() => document.querySelector(`[data-note="${ref.anchor}"]`)?.scrollIntoView({ behavior: 'smooth', block: 'center' }));
  };
  const putNote = (ref: NoteRef, fields: NoteFields) =>
    noteStep(ref, fields.title, async () => {
      await notes.update(ref.anchor, fields, ifMatch(ref.etag));
      ref.etag = (await notes.read(ref.anchor)).etag;
    });
  const addNote = (ref: NoteRef, fields: NoteFields) =>
    noteStep(ref, fields.title, async () => {
      const { note } = await notes.create(fields);
      ref.anchor = note.anchor;
      refs.current.set(note.anchor, ref);
      ref.etag = (await notes.read(note.anchor)).etag;
    });
  const dropNote = (ref: NoteRef, title: string) => noteStep(ref, title, () => notes.remove(ref.anchor, ifMatch(ref.etag)).then(() => undefined));
  /** A step on one note; a later save from the same dialog changes what it redoes to. */
  const stepOn = (ref: NoteRef, after: NoteFields, undo: (after: NoteFields) => Promise<void>, redo: (after: NoteFields) => Promise<void>) => {
    const step = {
      key: `dialog:${dialogRef.current}`,
      ref,
      after,
      undo: () => undo(step.after),
      redo: () => redo(step.after),
      absorb: (later: HistoryStep) => {
        const other = later as typeof step;
        if (other.ref !== ref) return false;
        step.after = other.after;
        return true;
      },
    };
    return step;
  };
  /** A note added (then, in the same dialog, changed): undone by deleting it. */
  const added = (ref: NoteRef, fields: NoteFields) => stepOn(ref, fields, (after) => dropNote(ref, after.title), (after) => addNote(ref, after));
  /** A note changed (all the saves of one dialog): undone by writing back what it was. */
  const changed = (ref: NoteRef, before: NoteFields, fields: NoteFields) => stepOn(ref, fields, () => putNote(ref, before), (after) => putNote(ref, after));
  /** A note deleted: undone by adding it again (a new note, at the end of the list). */
  const deleted = (ref: NoteRef, fields: NoteFields): HistoryStep => ({ undo: () => addNote(ref, fields), redo: () => dropNote(ref, fields.title) });

  const load = React.useCallback(async () => {
    const data = await notes.brief();
    setBrief(data);
    setPremise(data.premise ?? '');
  }, [articleId]); // eslint-disable-line react-hooks/exhaustive-deps

  React.useEffect(() => {
    load().catch(fail);
  }, [load]); // eslint-disable-line react-hooks/exhaustive-deps

  // Someone (an agent, another editor) changed the notes: read them again.
  React.useEffect(() => {
    if (notesRev !== undefined) load().catch(() => undefined);
  }, [notesRev]); // eslint-disable-line react-hooks/exhaustive-deps

  /** A note as it is now, with the ETag its edits send back as If-Match. */
  const readNote = async (anchor: string) => {
    const { value, etag } = await notes.read(anchor);
    return { note: value.note, etag };
  };

  const openNote = async (anchor: string) => {
    try {
      const { note, etag } = await readNote(anchor);
      setEditing({ anchor, etag, draft: draftOf(note), saved: draftOf(note) });
    } catch (error) {
      fail(error);
      await load().catch(() => undefined);
    }
  };

  const askDelete = async (anchor: string) => {
    try {
      setDoomed(await readNote(anchor));
    } catch (error) {
      fail(error);
      await load().catch(() => undefined);
    }
  };

  const savePremise = () =>
    mutation.run(
      async () => {
        await notes.savePremise({ premise: premise.trim() || null });
        await load();
      },
      { success: m('brief.premise.saved', 'Premise saved') },
    );

  const editingRef = React.useRef(editing);
  editingRef.current = editing;
  const savingRef = React.useRef<Promise<void> | null>(null);

  /**
   * Saves the dialog's draft: adds the note (once it has a title), or writes it over the
   * version last read or saved (If-Match; `etag` the current one when the editor chose to save
   * theirs after a conflict). A note changed meanwhile is a conflict: autosave stops, the
   * dialog keeps their text and shows the current version.
   */
  const saveNote = async (etag?: string | null) => {
    const current = editingRef.current;
    if (!current || (current.theirs && etag === undefined)) return;
    const { anchor, draft } = current;
    if (!draft.title.trim() || (current.saved && JSON.stringify(current.saved) === JSON.stringify(draft))) return;
    const fields = fieldsOf(draft);
    setSaving(true);
    try {
      if (anchor) {
        // If-Match: the version last read or saved, or theirs when the editor chose to save over it.
        writingRef.current = anchor;
        const { data, conflict } = await noteWrite.write((request) => notes.update(anchor, fields, request), { etag: etag === undefined ? current.etag : etag, reread: false });
        if (conflict) {
          const theirs = { note: conflict.value.note, etag: conflict.etag };
          setEditing((now) => (now?.anchor === anchor ? { ...now, theirs } : now));
        } else if (data) {
          // The fetch client's PUT hides the answer's headers: read the new ETag. Should someone
          // have written in between, the note read is not ours: shown as theirs, not overwritten later.
          const fresh = await readNote(anchor);
          const ours = fresh.note.kind === fields.kind && fresh.note.title === fields.title && (fresh.note.body ?? null) === fields.body && (fresh.note.url ?? null) === fields.url;
          // Ours: a step of this person's history (what it was: the version saved before, or theirs when saved over).
          const before = current.theirs && etag !== undefined ? fieldsOf(draftOf(current.theirs.note)) : current.saved ? fieldsOf(current.saved) : null;
          if (ours && before) history?.record(changed(refOf(anchor, fresh.etag), before, fields));
          setEditing((now) => (now?.anchor === anchor ? { ...now, saved: draft, ...(ours ? { etag: fresh.etag, theirs: undefined } : { theirs: fresh }) } : now));
        }
      } else {
        const { data: created } = await mutation.run(async () => {
          const { note } = await notes.create(fields);
          return { anchor: note.anchor, etag: (await readNote(note.anchor)).etag };
        });
        if (created) history?.record(added(refOf(created.anchor, created.etag), fields));
        if (created) setEditing((now) => (now && now.anchor === null ? { ...now, anchor: created.anchor, etag: created.etag, saved: draft } : now));
      }
    } catch (error) {
      fail(error);
    } finally {
      setSaving(false);
      await load().catch(() => undefined);
    }
  };

  /** One save at a time, the newest draft each time. */
  const flushNote = (etag?: string | null) => {
    const run = (savingRef.current ?? Promise.resolve()).then(() => saveNote(etag));
    savingRef.current = run.finally(() => {
      if (savingRef.current === run) savingRef.current = null;
    });
    return run;
  };

  // Autosave: the draft, a short pause after the last keystroke.
  const draftKey = editing ? JSON.stringify(editing.draft) : null;
  React.useEffect(() => {
    if (!draftKey || editing?.theirs) return;
    const timer = window.setTimeout(() => void flushNote(), NOTE_AUTOSAVE_MS);
    return () => window.clearTimeout(timer);
  }, [draftKey, Boolean(editing?.theirs)]); // eslint-disable-line react-hooks/exhaustive-deps

  /** Closing the dialog saves what is left to save first. */
  const closeNote = async () => {
    await flushNote();
    const current = editingRef.current;
    if (!current?.theirs) {
      if (current?.anchor && current.saved) notify.success(m('brief.note.saved', 'Note saved'));
      setEditing(null);
      // The next dialog's saves are another step.
      dialogRef.current += 1;
    }
  };

  /** After a conflict: drop the editor's text and continue from the current version. */
  const reloadNote = () =>
    setEditing((current) =>
      current?.theirs ? { anchor: current.anchor, etag: current.theirs.etag, draft: draftOf(current.theirs.note), saved: draftOf(current.theirs.note) } : current,
    );

  const removeNote = async () => {
    if (!doomed) return;
    const { note, etag } = doomed;
    // If-Match: the version the person saw when they asked (a changed note is kept, with the warning above).
    writingRef.current = note.anchor;
    const { data } = await noteRemoval.write((request) => notes.remove(note.anchor, request), { etag, reread: false });
    if (data) {
      notify.success(m('brief.note.deleted', 'Note deleted'));
      history?.record(deleted(refOf(note.anchor, null), fieldsOf(draftOf(note))));
    }
    setDoomed(null);
    await load().catch(() => undefined);
  };

  if (!brief) return null;
  const draft = editing?.draft;
  const setDraft = (patch: Partial<Draft>) => setEditing((current) => (current ? { ...current, draft: { ...current.draft, ...patch } } : current));

  return (
    <Box background="neutral0" hasRadius shadow="tableShadow" padding={4} tag="aside" aria-labelledby="quire-brief-title" data-testid="brief">
      <Typography variant="delta" tag="h2" id="quire-brief-title">
        {m('brief.title', 'Brief')}
      </Typography>
      <Box paddingTop={3}>
        {live ? (
          <LivePremise doc={live} canEdit={canEdit} label={m('brief.premise', 'Premise')} hint={m('brief.premise.liveHint', 'What the article is for, in a sentence or two. Saved as you type.')} />
        ) : (
          <>
            <Field.Root name="premise" hint={m('brief.premise.hint', 'What the article is for, in a sentence or two.')}>
              <Field.Label>{m('brief.premise', 'Premise')}</Field.Label>
              <Textarea value={premise} onChange={(e: React.ChangeEvent<HTMLTextAreaElement>) => setPremise(e.target.value)} disabled={!canEdit} />
              <Field.Hint />
            </Field.Root>
            {canEdit && premise !== (brief.premise ?? '') ? (
              // Only while the live document is unavailable: there is nothing to bind the premise to.
              <Flex paddingTop={2} justifyContent="flex-end">
                <Button size="S" onClick={savePremise} loading={busy}>
                  {m('brief.premise.save', 'Save premise')}
                </Button>
              </Flex>
            ) : null}
          </>
        )}
      </Box>

      <Flex paddingTop={5} justifyContent="space-between" alignItems="center">
        <Typography variant="sigma" tag="h3">
          {m('brief.notes', 'Notes ({count})', { count: brief.notes.length })}
        </Typography>
        {canEdit ? (
          <Button size="S" variant="secondary" startIcon={<Plus />} onClick={() => setEditing({ anchor: null, etag: null, draft: EMPTY })}>
            {m('brief.note.add', 'Add note')}
          </Button>
        ) : null}
      </Flex>

      <Flex tag="ul" direction="column" alignItems="stretch" gap={2} paddingTop={3}>
        {brief.notes.map((note) => (
          <Box tag="li" key={note.anchor} data-note={note.anchor} padding={3} hasRadius borderColor="neutral200" borderStyle="solid" borderWidth="1px">
            <Flex justifyContent="space-between" alignItems="flex-start" gap={2}>
              <Flex direction="column" alignItems="flex-start" gap={1} style={{ minWidth: 0 }}>
                <Flex gap={2} wrap="wrap">
                  <KindTag kind={note.kind} />
                  <Typography variant="pi" textColor="neutral600">
                    {note.createdBy === 'human' ? m('brief.note.byHuman', 'by a person') : m('brief.note.byAgent', 'by an agent')}
                  </Typography>
                </Flex>
                <Typography fontWeight="bold">{note.title}</Typography>
                {note.body ? <NoteBody markdown={note.body} /> : null}
                {note.url ? (
                  <Typography variant="pi" tag="a" href={note.url} target="_blank" rel="noreferrer noopener" textColor="primary600" style={{ overflowWrap: 'anywhere' }}>
                    {note.url}
                  </Typography>
                ) : null}
              </Flex>
              {canEdit ? (
                <Flex gap={1}>
                  <IconButton label={m('brief.note.edit', 'Edit note "{title}"', { title: note.title })} variant="ghost" onClick={() => openNote(note.anchor)}>
                    <Pencil />
                  </IconButton>
                  <IconButton label={m('brief.note.delete', 'Delete note "{title}"', { title: note.title })} variant="ghost" onClick={() => askDelete(note.anchor)}>
                    <Trash />
                  </IconButton>
                </Flex>
              ) : null}
            </Flex>
          </Box>
        ))}
        {brief.notes.length === 0 ? <Typography textColor="neutral600">{m('brief.notes.none', 'No notes yet.')}</Typography> : null}
      </Flex>

      <Dialog.Root open={editing !== null} onOpenChange={(open: boolean) => !open && void closeNote()}>
        <Dialog.Content>
          <Dialog.Header>{editing?.anchor ? m('brief.note.editTitle', 'Edit note') : m('brief.note.addTitle', 'Add a note')}</Dialog.Header>
          <Dialog.Body>
            {draft ? (
              <Flex direction="column" alignItems="stretch" gap={3} width="100%">
                {editing?.theirs ? (
                  <Box padding={3} hasRadius background="warning100" borderColor="warning200" borderStyle="solid" borderWidth="1px" data-testid="note-conflict" role="alert">
                    <Typography variant="omega" tag="p">
                      {m(
                        'brief.note.conflict',
                        'This note changed after you opened it (an agent or another editor saved it), so your text was not saved; it is still below. The note is now:',
                      )}
                    </Typography>
                    <Box paddingTop={2} data-testid="note-theirs">
                      <Typography fontWeight="bold" tag="p">
                        {editing.theirs.note.title}
                      </Typography>
                      {editing.theirs.note.body ? <NoteBody markdown={editing.theirs.note.body} /> : null}
                      {editing.theirs.note.url ? (
                        <Typography variant="pi" tag="p" style={{ overflowWrap: 'anywhere' }}>
                          {editing.theirs.note.url}
                        </Typography>
                      ) : null}
                    </Box>
                  </Box>
                ) : null}
                <Field.Root name="kind" required>
                  <Field.Label>{m('brief.note.kind', 'Kind')}</Field.Label>
                  <SingleSelect value={draft.kind} onChange={(value: string | number) => setDraft({ kind: String(value) as NoteKind })}>
                    {KINDS.map((kind) => (
                      <SingleSelectOption key={kind} value={kind}>
                        {m(`note.kind.${kind}`, kind)}
                      </SingleSelectOption>
                    ))}
                  </SingleSelect>
                </Field.Root>
                <Field.Root name="title" required>
                  <Field.Label>{m('brief.note.titleField', 'Title')}</Field.Label>
                  <TextInput value={draft.title} onChange={(e: React.ChangeEvent<HTMLInputElement>) => setDraft({ title: e.target.value })} />
                </Field.Root>
                <Field.Root name="body" hint={m('brief.note.bodyHint', 'Markdown.')}>
                  <Field.Label>{m('brief.note.body', 'Body')}</Field.Label>
                  <Textarea value={draft.body} onChange={(e: React.ChangeEvent<HTMLTextAreaElement>) => setDraft({ body: e.target.value })} />
                  <Field.Hint />
                </Field.Root>
                <Field.Root name="url">
                  <Field.Label>{m('brief.note.url', 'URL')}</Field.Label>
                  <TextInput type="url" value={draft.url} onChange={(e: React.ChangeEvent<HTMLInputElement>) => setDraft({ url: e.target.value })} />
                </Field.Root>
              </Flex>
            ) : null}
          </Dialog.Body>
          <Dialog.Footer>
            <Typography variant="pi" textColor="neutral600" data-testid="note-autosave" data-state={editing?.theirs ? 'conflict' : busy ? 'saving' : editing?.saved ? 'saved' : 'new'}>
              {editing?.theirs
                ? m('brief.note.paused', 'Not saved: choose below')
                : busy
                  ? m('brief.note.saving', 'Saving…')
                  : editing?.saved && JSON.stringify(editing.saved) === JSON.stringify(editing.draft)
                    ? m('brief.note.allSaved', 'Saved')
                    : draft?.title.trim()
                      ? m('brief.note.willSave', 'Saved as you type')
                      : m('brief.note.needsTitle', 'Saved once it has a title')}
            </Typography>
            {editing?.theirs ? (
              <Flex gap={2} wrap="wrap" justifyContent="flex-end">
                <Button variant="secondary" onClick={reloadNote}>
                  {m('brief.note.reload', 'Reload theirs')}
                </Button>
                <Button onClick={() => flushNote(editing.theirs?.etag ?? null)} loading={busy} disabled={!draft?.title.trim()}>
                  {m('brief.note.keepMine', 'Save mine over it')}
                </Button>
              </Flex>
            ) : (
              <Button onClick={() => closeNote()} variant="secondary">
                {m('brief.note.done', 'Done')}
              </Button>
            )}
          </Dialog.Footer>
        </Dialog.Content>
      </Dialog.Root>

      <Dialog.Root open={doomed !== null} onOpenChange={(open: boolean) => !open && setDoomed(null)}>
        <ConfirmDialog onConfirm={removeNote}>{m('brief.note.confirmDelete', 'Delete the note "{title}"?', { title: doomed?.note.title ?? '' })}</ConfirmDialog>
      </Dialog.Root>
    </Box>
  );
};
