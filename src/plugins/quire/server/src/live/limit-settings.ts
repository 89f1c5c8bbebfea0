/**
 * The live channel's limits in one place (issue 32): what a socket may send before it has
 * authenticated, how many sockets one address and how many documents one socket, one admin and
 * the process may hold, how fast a connection may send, and how large a document may grow.
 * Read from the plugin's configuration (config.ts, QUIRE_LIVE_*); the extensions that enforce
 * them take this object in their constructors (live/server.ts). docs/operations.md lists every one.
 */
import type { QuireConfig } from '../config';
import { MAX_UPDATE_BYTES } from './ports';

export interface LiveLimits {
  /** One update message (CONTRACT 19: a change over 1 MiB is refused). */
  maxUpdateBytes: number;
  /** The whole document, encoded (a change that would take it past this is refused). */
  maxDocumentBytes: number;
  /** Bytes a socket may send before any of its documents has authenticated (the auth message included). */
  preAuthBytes: number;
  /** A socket must authenticate a document within this many ms of opening, whatever it sends. */
  authTimeoutMs: number;
  /** An authenticated socket that sends nothing for this long is closed (Hocuspocus `timeout`). */
  idleTimeoutMs: number;
  socketsPerAddress: number;
  /** Refused authentications after which the socket is closed. */
  failedAuths: number;
  documentsPerSocket: number;
  documentsPerAdmin: number;
  documentsPerProcess: number;
  /** Token bucket of one document connection: messages per second, and how many may come at once. */
  messagesPerSecond: number;
  messageBurst: number;
}

export const DEFAULT_LIVE_LIMITS: LiveLimits = {
  maxUpdateBytes: MAX_UPDATE_BYTES,
  maxDocumentBytes: 32 * 1024 * 1024,
  preAuthBytes: 16 * 1024,
  authTimeoutMs: 10_000,
  idleTimeoutMs: 60_000,
  socketsPerAddress: 64,
  failedAuths: 5,
  documentsPerSocket: 16,
  documentsPerAdmin: 32,
  documentsPerProcess: 2_000,
  messagesPerSecond: 100,
  messageBurst: 400,
};

export const liveLimitsOf = (config: Partial<QuireConfig> | null | undefined): LiveLimits => ({
  maxUpdateBytes: MAX_UPDATE_BYTES,
  maxDocumentBytes: (config?.liveMaxDocumentMb ?? 32) * 1024 * 1024,
  preAuthBytes: config?.livePreAuthBytes ?? DEFAULT_LIVE_LIMITS.preAuthBytes,
  authTimeoutMs: config?.liveAuthTimeoutMs ?? DEFAULT_LIVE_LIMITS.authTimeoutMs,
  idleTimeoutMs: config?.liveIdleTimeoutMs ?? DEFAULT_LIVE_LIMITS.idleTimeoutMs,
  socketsPerAddress: config?.liveSocketsPerAddress ?? DEFAULT_LIVE_LIMITS.socketsPerAddress,
  failedAuths: config?.liveFailedAuths ?? DEFAULT_LIVE_LIMITS.failedAuths,
  documentsPerSocket: config?.liveDocumentsPerSocket ?? DEFAULT_LIVE_LIMITS.documentsPerSocket,
  documentsPerAdmin: config?.liveDocumentsPerAdmin ?? DEFAULT_LIVE_LIMITS.documentsPerAdmin,
  documentsPerProcess: config?.liveDocuments ?? DEFAULT_LIVE_LIMITS.documentsPerProcess,
  messagesPerSecond: config?.liveMessagesPerSecond ?? DEFAULT_LIVE_LIMITS.messagesPerSecond,
  messageBurst: config?.liveMessageBurst ?? DEFAULT_LIVE_LIMITS.messageBurst,
});

/**
 * Hocuspocus' own pre-authentication bounds, from ours (its defaults keep 5 MiB per socket). The
 * count of messages stays high: a page back from the network sends what was typed offline, one
 * small message per change, before its authentication (the provider's queue); the bytes bound it.
 */
export const hocuspocusLimits = (limits: LiveLimits) => ({
  timeout: limits.idleTimeoutMs,
  maxUnauthenticatedQueueSize: limits.preAuthBytes,
  maxUnauthenticatedQueueMessages: 1_000,
  maxPendingDocuments: limits.documentsPerSocket,
});
