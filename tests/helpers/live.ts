/**
 * Node clients of the live canvas (/quire/live): the HocuspocusProvider the canvas uses, over
 * `ws`, against the in-process Strapi's HTTP server (listening on a free port for the WebSocket).
 */
import type { AddressInfo } from 'node:net';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';
import type { TestApp } from './strapi';
import { waitFor } from './wait';

/** Makes the app's HTTP server listen (supertest then uses the same port); returns the live URL. */
export async function liveUrl(app: TestApp): Promise<string> {
  const server = app.strapi.server.httpServer;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/quire/live`;
}

export interface LiveClient {
  provider: HocuspocusProvider;
  doc: Y.Doc;
  /** Stateless messages received (the server's refusals). */
  stateless: string[];
  closes: Array<{ code: number; reason: string }>;
  destroy(): void;
}

/** Connects and resolves once synced; rejects with the server's reason when authentication fails. */
export function connectLive(url: string, articleId: string, token: string, options: { name?: string; doc?: Y.Doc } = {}): Promise<LiveClient> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.destroy();
      reject(new Error('not synced in time'));
    }, 15_000);
    const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket } as any);
    const stateless: string[] = [];
    const closes: Array<{ code: number; reason: string }> = [];
    const doc = options.doc ?? new Y.Doc();
    const provider = new HocuspocusProvider({
      websocketProvider: socket,
      name: `article:${articleId}`,
      document: doc,
      token,
      onStateless: ({ payload }) => stateless.push(payload),
      onClose: (data: any) => closes.push({ code: data?.event?.code, reason: data?.event?.reason }),
      onAuthenticationFailed: ({ reason }) => {
        clearTimeout(timer);
        client.destroy();
        reject(new Error(reason));
      },
      onSynced: () => {
        clearTimeout(timer);
        resolve(client);
      },
    });
    provider.attach();
    if (options.name) provider.setAwarenessField('user', { name: options.name, color: '#f00', kind: 'editor', id: 0 });
    const client: LiveClient = {
      provider,
      doc,
      stateless,
      closes,
      destroy() {
        provider.destroy();
        socket.destroy();
      },
    };
  });
}

/** Polls `check` until it holds (or `ms` pass): the shared `waitFor` (tests/helpers/wait.ts). */
export async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  await waitFor(check, { timeout: ms });
}

/** The text of a section's fragment in a client's document (paragraph texts joined by newlines). */
export function sectionText(doc: Y.Doc, sectionId: string): string {
  const fragment = doc.getXmlFragment(`section:${sectionId}`);
  const texts: string[] = [];
  const walk = (node: any) => {
    if (node instanceof Y.XmlText) texts.push(node.toString().replace(/<[^>]+>/g, ''));
    else if (node instanceof Y.XmlElement || node instanceof Y.XmlFragment) node.toArray().forEach(walk);
  };
  walk(fragment);
  return texts.join('\n');
}

/** Types `text` at `offset` of the first text node of the section's paragraph number `paragraph`. */
export function typeInto(doc: Y.Doc, sectionId: string, paragraph: number, offset: number, text: string): void {
  const fragment = doc.getXmlFragment(`section:${sectionId}`);
  const paragraphs = fragment.toArray().filter((n) => n instanceof Y.XmlElement && (n as Y.XmlElement).nodeName === 'paragraph') as Y.XmlElement[];
  const target = paragraphs[paragraph];
  const textNode = target.toArray().find((n) => n instanceof Y.XmlText) as Y.XmlText | undefined;
  doc.transact(() => {
    if (textNode) textNode.insert(Math.min(offset, textNode.length), text);
    else target.insert(0, [new Y.XmlText(text)]);
  });
}
