/**
 * Exit statuses of `quire`, one per error code, so a script can branch on `$?` alone.
 * docs/cli.md lists them; keep the two in step.
 */
export const EXIT = {
  ok: 0,
  /** An error with no status of its own, or a confirmation the person declined. */
  failure: 1,
  /** invalid-argument, and command-line usage errors (unknown option, missing file...). */
  usage: 2,
  /** unauthenticated: no credential, or one the server refused. */
  unauthenticated: 3,
  /** not-found. */
  notFound: 4,
  /** rate-limited (and slow-down when it surfaces). */
  rateLimited: 5,
  /** internal, a network failure, or an answer that is not our envelope. */
  unavailable: 6,
  /** access-denied: the login was denied on the approval page. */
  denied: 7,
  /** expired-token: the login expired or its device code was used already. */
  expired: 8,
  /** authorization-pending: `quire login --resume --once` while the login still waits. */
  pending: 9,
  /** precondition-failed: what --if-match named changed meanwhile (re-read, merge, retry). */
  changed: 10,
} as const;

const EXIT_BY_CODE: Record<string, number> = {
  'invalid-argument': EXIT.usage,
  usage: EXIT.usage,
  unauthenticated: EXIT.unauthenticated,
  'not-found': EXIT.notFound,
  'rate-limited': EXIT.rateLimited,
  'slow-down': EXIT.rateLimited,
  internal: EXIT.unavailable,
  'network-error': EXIT.unavailable,
  'bad-response': EXIT.unavailable,
  'access-denied': EXIT.denied,
  'expired-token': EXIT.expired,
  'authorization-pending': EXIT.pending,
  'precondition-failed': EXIT.changed,
  cancelled: EXIT.failure,
};

export const exitCodeFor = (code: string) => EXIT_BY_CODE[code] ?? EXIT.failure;

/** The server's envelope; `T` is the route's `data` (the server's own response schemas, see client.ts). */
export interface Envelope<T = any> {
  success: boolean;
  data?: T;
  error?: { code: string; message: string; nextAction?: string };
}

/**
 * Any failure of a command: an error envelope from the server (kept verbatim in `body` for
 * --json), or one the CLI made itself in the same shape.
 */
export class CliError extends Error {
  readonly code: string;
  readonly nextAction?: string;
  readonly exitCode: number;
  /** The server's response body, printed unchanged under --json. */
  readonly body?: string;
  readonly status?: number;
  readonly headers?: Headers;
  /** The error in the words of the command that failed (set on its way out: see action.ts). */
  spoken?: { message: string; next?: string };
  /** What an ambiguous anchor or id matched, one line each, for people. */
  matches?: string[];

  constructor(code: string, message: string, nextAction?: string, extra: { body?: string; status?: number; headers?: Headers } = {}) {
    super(message);
    this.name = 'CliError';
    this.code = code;
    this.nextAction = nextAction;
    this.exitCode = exitCodeFor(code);
    this.body = extra.body;
    this.status = extra.status;
    this.headers = extra.headers;
  }

  /** The failure envelope: the server's own text when there is one. */
  envelopeText(): string {
    if (this.body !== undefined) return this.body;
    const error: Envelope['error'] = { code: this.code, message: this.message };
    if (this.nextAction) error.nextAction = this.nextAction;
    return JSON.stringify({ success: false, error });
  }
}

/** A problem with what was typed (a local invalid-argument: same code as the server's). */
export const usage = (message: string, nextAction?: string) => new CliError('invalid-argument', message, nextAction);
