/**
 * A bare Hocuspocus server on a free port, wired to an HTTP `upgrade` the way the live channel
 * is (SocketLimits before and after the upgrade), without Strapi: for the live extensions'
 * fast tests (tests/unit/live). Tokens: `admin:<id>` authenticates as that admin (editor),
 * `reader:<id>` read-only; anything else is refused. Documents are built like an article's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hocuspocus, type Extension } from '@hocuspocus/server';
import * as encoding from 'lib0/encoding';
import WebSocket, { WebSocketServer } from 'ws';
import * as Y from 'yjs';
import { DEFAULT_LIVE_LIMITS, hocuspocusLimits, type LiveLimits } from '../../src/plugins/quire/server/src/live/limit-settings';
import { refusal } from '../../src/plugins/quire/server/src/live/ports';
import { addressOf, originAllowed, SocketLimits } from '../../src/plugins/quire/server/src/live/socket-limits';
import { waitFor } from './wait';

export const SECTION_1 = 'aaaaaaaa-0000-4000-8000-000000000001';
export const SECTION_2 = 'aaaaaaaa-0000-4000-8000-000000000002';
export const ARTICLE = 'bbbbbbbb-0000-4000-8000-000000000001';

export interface BareServer {
  url: string;
  port: number;
  hocuspocus: Hocuspocus;
  socketLimits: SocketLimits;
  server: http.Server;
  close(): Promise<void>;
}

export interface BareOptions {
  limits?: Partial<LiveLimits>;
  extensions?: (limits: LiveLimits) => Extension[];
  /** Called with the admin once authenticated (DocumentNames.admit). */
  admit?: (adminId: number) => void;
  allowedOrigins?: Set<string>;
  /** Without SocketLimits (today's main, as a baseline). */
  bare?: boolean;
}

export async function bareServer(options: BareOptions = {}): Promise<BareServer> {
  const limits: LiveLimits = { ...DEFAULT_LIVE_LIMITS, ...options.limits };
  const socketLimits = new SocketLimits(limits);
  const hocuspocus = new Hocuspocus({
    quiet: true,
    ...(options.bare ? {} : hocuspocusLimits(limits)),
    extensions: options.extensions?.(limits) ?? [],
    async onAuthenticate({ token, connectionConfig }) {
      const [kind, id] = String(token).split(':');
      if ((kind !== 'admin' && kind !== 'reader') || !id) throw refusal('Sign in to the admin panel to open the live canvas.');
      connectionConfig.readOnly = kind === 'reader';
      options.admit?.(Number(id));
      return { adminId: Number(id), name: `Admin ${id}`, canEdit: kind === 'admin' };
    },
    async onLoadDocument({ document }) {
      document.transact(() => {
        document.getArray<string>('order').insert(0, [SECTION_1, SECTION_2]);
        for (const id of [SECTION_1, SECTION_2]) {
          const paragraph = new Y.XmlElement('paragraph');
          paragraph.insert(0, [new Y.XmlText(`Text of ${id.slice(-1)}.`)]);
          document.getXmlFragment(`section:${id}`).insert(0, [paragraph]);
        }
        document.getText('premise').insert(0, 'Why engines');
        document.getMap('meta').set('notesRev', 0);
      });
    },
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.bare ? 16 * limits.maxUpdateBytes : socketLimits.maxPayload });
  const server = http.createServer((_request, response) => response.end('ok'));
  server.on('upgrade', (request, socket, head) => {
    if (!options.bare && !originAllowed(request, options.allowedOrigins ?? new Set())) return socketLimits.refuseOrigin(socket);
    if (!options.bare && !socketLimits.admit(socket, addressOf(request, 0))) return;
    wss.handleUpgrade(request, socket, head, (ws) => {
      if (!options.bare) socketLimits.watch(ws, socket);
      const client = hocuspocus.handleConnection(ws as any, new Request(`http://localhost${request.url}`), {});
      ws.on('message', (data: Buffer) => client.handleMessage(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)));
      ws.on('close', (code: number, reason: Buffer) => client.handleClose({ code, reason: reason.toString() }));
      ws.on('error', () => undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}/quire/live`,
    port,
    hocuspocus,
    socketLimits,
    server,
    async close() {
      hocuspocus.closeConnections();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A raw socket speaking y-protocols bytes, as an attacker would. */
export interface RawClient {
  ws: WebSocket;
  received: Uint8Array[];
  closed: Promise<{ code: number; reason: string }>;
  isClosed(): boolean;
  send(bytes: Uint8Array): void;
}

export function rawClient(url: string, headers: Record<string, string> = {}): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const received: Uint8Array[] = [];
    let done = false;
    const closed = new Promise<{ code: number; reason: string }>((resolveClose) =>
      ws.on('close', (code, reason) => {
        done = true;
        resolveClose({ code, reason: reason.toString() });
      }),
    );
    ws.on('message', (data: Buffer) => received.push(new Uint8Array(data)));
    ws.on('error', (error) => (done ? undefined : reject(error)));
    ws.on('unexpected-response', (_request, response) => reject(Object.assign(new Error(`HTTP ${response.statusCode}`), { status: response.statusCode })));
    ws.on('open', () =>
      resolve({
        ws,
        received,
        closed,
        isClosed: () => done,
        send: (bytes) => {
          if (ws.readyState === WebSocket.OPEN) ws.send(bytes);
        },
      }),
    );
  });
}

const message = (document: string, write: (encoder: encoding.Encoder) => void) => {
  const encoder = encoding.createEncoder();
  encoding.writeVarString(encoder, document);
  write(encoder);
  return encoding.toUint8Array(encoder);
};

/** Hocuspocus' Auth message (type 2, token 0) for a document. */
export const authMessage = (document: string, token: string) =>
  message(document, (encoder) => {
    encoding.writeVarUint(encoder, 2);
    encoding.writeVarUint(encoder, 0);
    encoding.writeVarString(encoder, token);
  });

/** A y-protocols sync update (type 0, update 2) for a document. */
export const updateMessage = (document: string, update: Uint8Array) =>
  message(document, (encoder) => {
    encoding.writeVarUint(encoder, 0);
    encoding.writeVarUint(encoder, 2);
    encoding.writeVarUint8Array(encoder, update);
  });

/** A y-protocols sync step 2 (type 0, step 2 = 1): what a page reconnecting with its copy sends. */
export const syncStep2Message = (document: string, update: Uint8Array) =>
  message(document, (encoder) => {
    encoding.writeVarUint(encoder, 0);
    encoding.writeVarUint(encoder, 1);
    encoding.writeVarUint8Array(encoder, update);
  });

/** An awareness message (type 1) for a document. */
export const awarenessMessage = (document: string, update: Uint8Array) =>
  message(document, (encoder) => {
    encoding.writeVarUint(encoder, 1);
    encoding.writeVarUint8Array(encoder, update);
  });

/** An awareness update naming any client ids with any states (what y-protocols encodes). */
export function awarenessUpdate(states: Array<{ clientId: number; clock: number; state: unknown }>): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, states.length);
  for (const { clientId, clock, state } of states) {
    encoding.writeVarUint(encoder, clientId);
    encoding.writeVarUint(encoder, clock);
    encoding.writeVarString(encoder, JSON.stringify(state));
  }
  return encoding.toUint8Array(encoder);
}

/** Polls `check` until it holds (or `ms` pass): the shared `waitFor` (tests/helpers/wait.ts). */
export async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  await waitFor(check, { timeout: ms });
}
