/**
 * The article as one live document (CONTRACT 19; the protocol in docs/admin.md): one
 * HocuspocusProvider per open article, on the admin's own port (`/quire/live`), named
 * `article:<documentId>` and authenticated with the admin's access token. The hook exposes
 * the server-written parts of the Y.Doc the canvas renders from (`order`, `meta`, the
 * `outline`'s entries and the agents in `presence`: CONTRACT 22, structure arrives through the
 * document, not by polling), the connection's state, and who else is here (awareness).
 */
import { HocuspocusProvider } from '@hocuspocus/provider';
import * as React from 'react';
import * as Y from 'yjs';
import type { LiveOutlineEntry, LivePresence } from '../../../shared/live-shapes';
import { textSplice } from '../../../shared/text-splice';

export type { LiveOutlineEntry, LivePresence };

export type LiveStatus = 'connecting' | 'connected' | 'disconnected' | 'refused';

/** Who is in the article (awareness `user`) and which section their caret is in. */
export interface Peer {
  clientId: number;
  name: string;
  color: string;
  id: string | number | null;
  section: string | null;
}

/** `meta.changed:<id>` and `meta.deleted:<id>`, as the server writes them. */
export interface ChangeMark {
  name: string;
  kind: string;
  at: string | number;
  trashId?: string;
}

export interface LiveArticle {
  provider: HocuspocusProvider | null;
  doc: Y.Doc | null;
  status: LiveStatus;
  /** Why the server refused the connection, when it did. */
  reason: string | null;
  /** The server's words when it refused a change of this page's (too large): the page reopened the document without it. */
  refusal: { reason: string; at: number } | null;
  /** Whether the server lets this person write (read permission only: watch). */
  readOnly: boolean;
  /** Whether the document has been received once (the editors bind only then). */
  synced: boolean;
  /**
   * The live channel has not given the document within UNREACHABLE_MS of opening the page (a
   * proxy that drops WebSocket upgrades, say): the canvas says so and stays read-only.
   */
  unreachable: boolean;
  /** Changes typed here that the server has not acknowledged yet. */
  unsynced: number;
  /** The sections' ids in order, as the server keeps them; null until it has any. */
  order: string[] | null;
  meta: Record<string, unknown>;
  /** The sections' outline entries by id, as the server keeps them in the document. */
  outline: Record<string, LiveOutlineEntry>;
  /** Agents that wrote lately, by name (expired entries included until the server drops them). */
  presence: Record<string, LivePresence>;
  peers: Peer[];
}

export interface LiveUser {
  id: string | number | null;
  name: string;
  color: string;
}

/** The live channel's URL: the admin backend with a ws(s) scheme. */
export const liveUrl = () => {
  const backend = new URL((window as any).strapi?.backendURL || window.location.origin, window.location.href);
  backend.protocol = backend.protocol === 'https:' ? 'wss:' : 'ws:';
  backend.pathname = `${backend.pathname.replace(/\/$/, '')}/quire/live`;
  backend.search = '';
  return backend.href;
};

/** The admin's access token, where the panel's fetch client keeps it (localStorage with "remember me", else a cookie). */
export const storedToken = (): string | null => {
  try {
    const remembered = window.localStorage.getItem('jwtToken');
    if (remembered) return JSON.parse(remembered);
  } catch {
    // Unreadable storage: try the cookie.
  }
  const cookie = document.cookie.split('; ').find((entry) => entry.startsWith('jwtToken='));
  return cookie ? decodeURIComponent(cookie.slice('jwtToken='.length)) : null;
};

const COLOURS = ['#4945ff', '#c0392b', '#16a085', '#d35400', '#8e44ad', '#2c7be5', '#b7791f', '#0f766e'];

/** A stable colour per person, so everyone sees the same colour for them. */
export const colourFor = (key: string) => {
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return COLOURS[Math.abs(hash) % COLOURS.length];
};

/** How long the canvas waits for the live document before it says live editing cannot connect (CONTRACT 22: within 10 s). */
export const UNREACHABLE_MS = 8000;

const snapshotMeta = (doc: Y.Doc) => doc.getMap('meta').toJSON() as Record<string, unknown>;
const EMPTY: Omit<LiveArticle, 'provider' | 'doc' | 'refusal'> = { status: 'connecting', reason: null, readOnly: false, synced: false, unreachable: false, unsynced: 0, order: null, meta: {}, outline: {}, presence: {}, peers: [] };

/**
 * Opens the article's live document while the page shows it (closed on unmount).
 * `freshToken` is asked on every (re)connection, so an expired access token is refreshed first.
 */
export const useLiveArticle = (articleId: string | null, user: LiveUser | null, freshToken: () => Promise<string | null>): LiveArticle => {
  const [state, setState] = React.useState<Omit<LiveArticle, 'provider' | 'doc' | 'refusal'>>({ ...EMPTY });
  const [handles, setHandles] = React.useState<{ provider: HocuspocusProvider; doc: Y.Doc } | null>(null);
  /** Bumped to reopen the document from the server (after a refused change). */
  const [generation, setGeneration] = React.useState(0);
  const [refusal, setRefusal] = React.useState<LiveArticle['refusal']>(null);
  const tokenRef = React.useRef(freshToken);
  tokenRef.current = freshToken;
  const userKey = user ? `${user.id}|${user.name}|${user.color}` : null;

  React.useEffect(() => {
    if (!articleId || !user) return;
    const doc = new Y.Doc();
    const update = (patch: Partial<Omit<LiveArticle, 'provider' | 'doc' | 'refusal'>>) => setState((current) => ({ ...current, ...patch }));
    // No document yet after a while: something between the page and the server (a proxy, a
    // firewall) keeps the WebSocket from opening. The provider keeps trying; the page says why.
    const unreachableTimer = window.setTimeout(() => update({ unreachable: true }), UNREACHABLE_MS);
    const provider = new HocuspocusProvider({
      url: liveUrl(),
      name: `article:${articleId}`,
      document: doc,
      token: async () => (await tokenRef.current()) ?? '',
      onStatus: ({ status }) => update({ status: status as LiveStatus, ...(status === 'connected' ? { reason: null } : {}) }),
      onSynced: () => {
        window.clearTimeout(unreachableTimer);
        update({ synced: true, unreachable: false });
      },
      onAuthenticated: ({ scope }) => update({ readOnly: scope === 'readonly' }),
      onAuthenticationFailed: ({ reason }) => update({ status: 'refused', reason: reason || null }),
      onUnsyncedChanges: ({ number }) => update({ unsynced: number }),
      // A change the server refused (over 1 MiB, or a section past its limit): it closes the
      // connection, and the provider would send the same change again on reconnect. Say why, and
      // reopen the document as the server has it.
      onStateless: ({ payload }) => {
        let message: { type?: string; reason?: string } = {};
        try {
          message = JSON.parse(payload);
        } catch {
          return;
        }
        // Permissions changed while the page is open (CONTRACT 22): read-only now, writable again, or ended.
        if (message.type === 'readOnly' || message.type === 'editable') return update({ readOnly: message.type === 'readOnly', reason: message.reason || null });
        if (message.type === 'ended') return update({ status: 'refused', reason: message.reason || null });
        if (message.type !== 'refused') return;
        setRefusal({ reason: message.reason || 'The server refused the change.', at: Date.now() });
        setGeneration((n) => n + 1);
      },
    });
    // Try again for as long as the page is open: edits stay in the doc meanwhile (Yjs), and go on reconnect.
    const order = doc.getArray<string>('order');
    const meta = doc.getMap('meta');
    const outline = doc.getMap<LiveOutlineEntry>('outline');
    const presence = doc.getMap<LivePresence>('presence');
    const readOrder = () => update({ order: order.length ? order.toArray() : null });
    const readMeta = () => update({ meta: snapshotMeta(doc) });
    const readOutline = () => update({ outline: outline.toJSON() as Record<string, LiveOutlineEntry> });
    const readPresence = () => update({ presence: presence.toJSON() as Record<string, LivePresence> });
    order.observe(readOrder);
    meta.observe(readMeta);
    outline.observe(readOutline);
    presence.observe(readPresence);
    const awareness = provider.awareness!;
    awareness.setLocalStateField('user', { name: user.name, color: user.color, kind: 'editor', id: user.id });
    awareness.setLocalStateField('section', null);
    const readPeers = () => {
      const peers: Peer[] = [];
      awareness.getStates().forEach((value, clientId) => {
        if (clientId === doc.clientID || !value?.user?.name) return;
        peers.push({ clientId, name: String(value.user.name), color: String(value.user.color ?? '#666'), id: value.user.id ?? null, section: value.section ?? null });
      });
      update({ peers });
    };
    awareness.on('change', readPeers);
    // The browser knows first when the network goes: say so at once (the socket itself notices
    // only after its 30 s message timeout), and on its return reconnect now with a fresh socket
    // rather than after the retry's back-off.
    let wentOffline = false;
    const offline = () => {
      wentOffline = true;
      update({ status: 'disconnected' });
    };
    const online = () => {
      if (!wentOffline) return;
      wentOffline = false;
      const socket = provider.configuration.websocketProvider;
      if (socket.status === 'connected') {
        // A socket from before the outage may be dead without knowing it: close it; its close
        // handler reconnects (after the provider's 1 s delay) since it is still meant to connect.
        socket.disconnect();
        socket.shouldConnect = true;
      } else void socket.connect(); // cancels the back-off's wait: now
    };
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    setHandles({ provider, doc });
    readOrder();
    readMeta();
    readOutline();
    readPresence();
    return () => {
      order.unobserve(readOrder);
      meta.unobserve(readMeta);
      outline.unobserve(readOutline);
      presence.unobserve(readPresence);
      awareness.off('change', readPeers);
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
      window.clearTimeout(unreachableTimer);
      provider.destroy();
      doc.destroy();
      setHandles(null);
      setState({ ...EMPTY });
    };
  }, [articleId, userKey, generation]); // eslint-disable-line react-hooks/exhaustive-deps

  return { provider: handles?.provider ?? null, doc: handles?.doc ?? null, refusal, ...state };
};

/** Minimal change from `before` to `after` (common prefix and suffix kept), applied to a Y.Text; `origin` names whose change it is (the undo history records the premise's). */
export const applyTextDiff = (text: Y.Text, before: string, after: string, origin: unknown = null) => {
  const splice = textSplice(before, after);
  if (!splice) return;
  text.doc!.transact(() => {
    if (splice.removed > 0) text.delete(splice.start, splice.removed);
    if (splice.inserted) text.insert(splice.start, splice.inserted);
  }, origin);
};
