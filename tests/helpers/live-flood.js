'use strict';
/**
 * An editor flooding the live channel from its own process (issue 32, finding 4), so the server
 * process's responsiveness is measured without the flood's own work in it:
 * `node live-flood.js <ws url> <article id> <admin token> <updates>` connects as the canvas
 * does, types <updates> one-character updates in a row into the first section, and prints one
 * JSON line: {refused: <the server's words or null>, sent}.
 */
const { HocuspocusProvider, HocuspocusProviderWebsocket } = require('@hocuspocus/provider');
const WebSocket = require('ws');
const Y = require('yjs');

const [url, articleId, token, count] = process.argv.slice(2);
const doc = new Y.Doc();
let refused = null;
const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket });
const finish = () => {
  process.stdout.write(`${JSON.stringify({ refused, sent: Number(count) })}\n`);
  process.exit(0);
};
const provider = new HocuspocusProvider({
  websocketProvider: socket,
  name: `article:${articleId}`,
  document: doc,
  token,
  onStateless: ({ payload }) => {
    try {
      const message = JSON.parse(payload);
      if (message.type === 'refused') {
        refused = message.reason;
        setTimeout(finish, 200);
      }
    } catch {
      // Not ours.
    }
  },
  onAuthenticationFailed: ({ reason }) => {
    refused = `authentication: ${reason}`;
    finish();
  },
  onSynced: () => {
    const id = doc.getArray('order').get(0);
    const paragraph = doc.getXmlFragment(`section:${id}`).get(0);
    const text = paragraph.toArray().find((node) => node instanceof Y.XmlText);
    for (let i = 0; i < Number(count); i++) text.insert(0, 'x');
    // Not refused: the server took them all (today's main); wait for the acknowledgements.
    const check = setInterval(() => {
      if (!provider.hasUnsyncedChanges) {
        clearInterval(check);
        finish();
      }
    }, 50);
  },
});
provider.attach();
setTimeout(finish, 60_000);
