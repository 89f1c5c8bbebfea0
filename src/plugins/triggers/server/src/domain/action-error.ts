/**
 * What an action throws to fail an execution with a message the caller may read
 * (`error: {code, message}` in the status). `retryable` asks for another attempt when the
 * workflow allows more. Any other thrown error fails the execution as `action-failed`
 * without its message, which may carry internals.
 */
export class ActionError extends Error {
  readonly code: string;
  readonly retryable: boolean;

  constructor(code: string, message: string, options: { retryable?: boolean } = {}) {
    super(message);
    this.name = 'ActionError';
    this.code = code;
    this.retryable = options.retryable ?? false;
  }
}
