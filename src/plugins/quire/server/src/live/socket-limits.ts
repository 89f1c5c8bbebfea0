/**
 * What one WebSocket of the live channel may do before and around authentication (issue 32,
 * finding 1), below Hocuspocus: the wiring that takes the HTTP `upgrade` calls `admit` before
 * upgrading and `watch` after.
 *
 * - sockets per address are capped (429 before the upgrade);
 * - a web page's `Origin` must be this server's own (or PUBLIC_URL's, CORS_ORIGINS'): defence in
 *   depth, the token is not a cookie; clients without an `Origin` (agents, Node) pass;
 * - until one of its documents has authenticated, a socket may send at most `preAuthBytes`
 *   (counted on the TCP stream, so not even a frame being received can grow past it) and must
 *   authenticate within `authTimeoutMs` of opening, whatever it sends meanwhile;
 * - after `failedAuths` refused authentications the socket is closed.
 *
 * The results of authentication are read from what Hocuspocus sends (its Auth answers), so no
 * hook has to report them.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import * as decoding from 'lib0/decoding';
import type { WebSocket } from 'ws';
import type { LiveLimits } from './limit-settings';

/** Close code of a socket closed by these limits (4401 is an ended session, live/permissions.ts). */
export const SOCKET_LIMIT_CLOSE_CODE = 4408;

const MESSAGE_AUTH = 2;
const AUTH_PERMISSION_DENIED = 1;
const AUTH_AUTHENTICATED = 2;

/** The kind of an Auth answer Hocuspocus sends (`authenticated`, `denied`), or null for any other message. */
export function authAnswer(message: Uint8Array): 'authenticated' | 'denied' | null {
  try {
    const decoder = decoding.createDecoder(message);
    decoding.readVarString(decoder);
    if (decoding.readVarUint(decoder) !== MESSAGE_AUTH) return null;
    const kind = decoding.readVarUint(decoder);
    return kind === AUTH_AUTHENTICATED ? 'authenticated' : kind === AUTH_PERMISSION_DENIED ? 'denied' : null;
  } catch {
    return null;
  }
}

/** The web origin a request comes from may open the channel: none (not a browser), the request's own host, or one of `allowed`. */
export function originAllowed(request: Pick<IncomingMessage, 'headers'>, allowed: Set<string>): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(String(origin));
  } catch {
    return false;
  }
  const serialized = parsed.origin.toLowerCase();
  const host = String(request.headers.host ?? '').toLowerCase();
  if (host && (serialized === `http://${host}` || serialized === `https://${host}`)) return true;
  return allowed.has(serialized);
}

/**
 * The client's address, as the HTTP limits take it (docs/operations.md "Client addresses behind
 * proxies"): the TCP peer, or behind trusted proxies (TRUST_PROXY) the X-Forwarded-For entry
 * `proxyHops` from the right (TRUST_PROXY_HOPS).
 */
export function addressOf(request: Pick<IncomingMessage, 'headers' | 'socket'>, proxyHops: number): string {
  const forwarded = request.headers['x-forwarded-for'];
  if (proxyHops > 0 && forwarded) {
    const hops = String(forwarded).split(',').map((hop) => hop.trim()).filter(Boolean);
    if (hops.length) return hops[Math.max(0, hops.length - proxyHops)];
  }
  return request.socket?.remoteAddress ?? 'unknown';
}

interface Watched {
  authenticated: boolean;
  failures: number;
  preAuthBytes: number;
  closing: boolean;
}

export class SocketLimits {
  private readonly perAddress = new Map<string, number>();

  constructor(
    private readonly limits: Pick<LiveLimits, 'preAuthBytes' | 'authTimeoutMs' | 'socketsPerAddress' | 'failedAuths' | 'maxUpdateBytes'>,
    private readonly log: { warn(message: string): void } = { warn: () => undefined },
  ) {}

  /**
   * The `ws` server's `maxPayload`: twice the update limit (it was 16 times). A change between
   * the limit and this reaches the channel, which refuses it in words the canvas shows; past it
   * the socket is closed (1009) without words.
   */
  get maxPayload(): number {
    return 2 * this.limits.maxUpdateBytes;
  }

  /** Sockets open from an address (tests). */
  openFrom(address: string): number {
    return this.perAddress.get(address) ?? 0;
  }

  /**
   * Before the upgrade: counts the socket against its address, or answers 429 and destroys it
   * when the address already has as many as it may. The count is released when the TCP socket closes.
   */
  admit(socket: Duplex, address: string): boolean {
    const count = this.perAddress.get(address) ?? 0;
    if (count >= this.limits.socketsPerAddress) {
      this.log.warn(`live: refused a socket from ${address}: ${count} already open (QUIRE_LIVE_SOCKETS_PER_ADDRESS)`);
      socket.end('HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\nToo many live connections from this address.\r\n');
      socket.destroy();
      return false;
    }
    this.perAddress.set(address, count + 1);
    let released = false;
    socket.once('close', () => {
      if (released) return;
      released = true;
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
    });
    return true;
  }

  /** Answers 403 to an upgrade from a foreign web origin. */
  refuseOrigin(socket: Duplex) {
    socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\nThe live canvas opens only from this server\'s own admin panel (PUBLIC_URL, CORS_ORIGINS).\r\n');
    socket.destroy();
  }

  /** After the upgrade: the pre-authentication budget and deadline, and the cap on refused authentications. */
  watch(ws: WebSocket, socket: Duplex): void {
    const state: Watched = { authenticated: false, failures: 0, preAuthBytes: 0, closing: false };
    const close = (reason: string) => {
      if (state.closing) return;
      state.closing = true;
      socket.off('data', count);
      clearTimeout(deadline);
      try {
        ws.close(SOCKET_LIMIT_CLOSE_CODE, reason);
      } catch {
        // Already closing.
      }
      // A peer that does not answer the close frame is cut off.
      setTimeout(() => ws.terminate(), 1_000).unref();
    };
    const count = (chunk: Buffer) => {
      state.preAuthBytes += chunk.length;
      if (state.preAuthBytes > this.limits.preAuthBytes) {
        this.log.warn(`live: closed a socket that sent ${state.preAuthBytes} bytes before authenticating (QUIRE_LIVE_PREAUTH_BYTES)`);
        close('Authenticate first: too much was sent before authentication.');
        socket.pause();
      }
    };
    socket.on('data', count);
    const deadline = setTimeout(() => {
      if (!state.authenticated) close('Not authenticated in time.');
    }, this.limits.authTimeoutMs);
    deadline.unref();
    const send = ws.send.bind(ws) as (data: unknown, ...rest: unknown[]) => void;
    (ws as { send: unknown }).send = (data: unknown, ...rest: unknown[]) => {
      if (data instanceof Uint8Array) {
        const answer = authAnswer(data);
        if (answer === 'authenticated' && !state.authenticated) {
          state.authenticated = true;
          socket.off('data', count);
          clearTimeout(deadline);
        } else if (answer === 'denied') {
          state.failures += 1;
          if (state.failures >= this.limits.failedAuths) {
            send(data, ...rest);
            this.log.warn(`live: closed a socket after ${state.failures} refused authentications (QUIRE_LIVE_FAILED_AUTHS)`);
            close('Too many refused authentications.');
            return;
          }
        }
      }
      send(data, ...rest);
    };
    ws.once('close', () => {
      clearTimeout(deadline);
      socket.off('data', count);
    });
  }
}
