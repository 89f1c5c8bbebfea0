import { CliError } from './errors';
import type { CallResult } from './client';

/**
 * Terminal control sequences: CSI (`ESC [` or C1 CSI) with its parameters, OSC, DCS, SOS, PM
 * and APC strings up to their terminator (or the end of the line), and any other escape.
 */
const ESCAPES =
  /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?|(?:\x1b[\]PX^_]|[\x9d\x90\x98\x9e\x9f])[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?|\x1b[\x20-\x2f]*[\x30-\x7e]?/g;
/** C0 controls but newline and tab (a carriage return can overwrite what a line showed), DEL, C1. */
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Text fit for a terminal: a name or text the server sent (a key's or client's name, a title)
 * could otherwise move the cursor, rewrite the screen or the window title, or set the
 * clipboard. Escape sequences go whole, other control characters one by one.
 */
export const terminalSafe = (text: string): string => text.replace(/\r\n/g, '\n').replace(ESCAPES, '').replace(CONTROLS, '');

/**
 * JSON fit for a terminal with the same meaning: control characters written as `\uXXXX`
 * escapes. (In valid JSON raw ones can only be DEL and C1, inside strings, where the escape
 * means the same character; whitespace between tokens stays.)
 */
export const terminalSafeJson = (json: string): string =>
  json.replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Writes results to stdout and everything else (progress, hints, errors) to stderr. The one
 * place the CLI prints: what it prints is made terminal-safe here (most of it came from the server).
 */
export class Output {
  constructor(
    readonly json: boolean,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly stderr: NodeJS.WritableStream = process.stderr,
  ) {}

  /** A command's result: the server's envelope verbatim under --json, the readable form otherwise. */
  result(call: CallResult, human: () => string): void {
    this.out(this.json ? call.text : human());
  }

  /** A result the CLI composed itself (login, logout), in the same envelope shape. */
  composed(data: unknown, human: () => string): void {
    this.out(this.json ? JSON.stringify({ success: true, data }) : human());
  }

  /** A result: JSON under --json (kept JSON), text otherwise. */
  out(text: string): void {
    const safe = this.json ? terminalSafeJson(text) : terminalSafe(text);
    if (safe) this.stdout.write(safe.endsWith('\n') ? safe : safe + '\n');
  }

  info(text: string): void {
    const safe = terminalSafe(text);
    this.stderr.write(safe.endsWith('\n') ? safe : safe + '\n');
  }

  /**
   * An error: its envelope on stdout under --json (the server's, unchanged); on stderr, in
   * words, what went wrong and what to run next, in the CLI's own commands and flags.
   */
  error(error: CliError): void {
    if (this.json) this.out(error.envelopeText());
    const { message, next } = error.spoken ?? { message: error.message, next: error.nextAction };
    const lines = [`Error: ${message} (${error.code})`];
    if (error.matches?.length) lines.push('It matches:', ...error.matches.map((line) => `  ${line}`));
    if (next) lines.push(`Next: ${next}`);
    this.info(lines.join('\n'));
  }
}

/** A plain text table: columns padded to their widest cell, the last one left ragged. */
export function table(headers: string[], rows: Array<Array<string | number | null | undefined>>): string {
  // Safe before measuring: an escape sequence takes no columns, and would skew the padding.
  const cells = [headers, ...rows.map((row) => row.map((cell) => (cell == null ? '' : terminalSafe(String(cell)))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => displayWidth(row[i] ?? ''))));
  return cells
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i] - displayWidth(cell))))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Columns a string takes in a terminal: wide (CJK) characters count twice. */
function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    width += code >= 0x1100 && /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul}|[\u3000-\u303f\uff00-\uffef]/u.test(ch) ? 2 : 1;
  }
  return width;
}

/**
 * The CLI's one time format for people: the server's ISO-8601 time in the local time zone (or
 * `timeZone`), "2026-11-22 19:05". --json keeps the server's ISO-8601 UTC strings.
 */
export function when(iso: string | Date | null | undefined, timeZone?: string): string {
  if (!iso) return '-';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/** Keeps one line of text to a length, for table cells. */
export function clip(text: string | null | undefined, max = 60): string {
  const line = String(text ?? '').replace(/\s+/g, ' ').trim();
  return line.length > max ? line.slice(0, max - 1) + '…' : line;
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
