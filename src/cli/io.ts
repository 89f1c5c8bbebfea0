import fs from 'node:fs';
import readline from 'node:readline';
import { CliError, usage } from './errors';

export async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

export function readFileBytes(file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw usage(`Cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message}.`);
  }
}

/** The text in single quotes, for a command line shown to copy. */
export const shellQuote = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

function isFile(name: string): boolean {
  try {
    return fs.statSync(name).isFile();
  } catch {
    return false;
  }
}

/**
 * The content rule, for text given on the command line (brief set's words, --premise, --body):
 * text that is exactly the name of an existing file is refused, since the person almost
 * certainly meant the file, and the option that reads a file is named. (To keep such words as
 * they are, pipe them to that option's "-".)
 */
export function refuseFileName(text: string, what: string, fileOption: string): void {
  if (text.includes('\n') || text.length > 1024 || !isFile(text)) return;
  throw usage(
    `"${text}" is the name of a file here, not ${what}.`,
    `Pass ${fileOption} ${shellQuote(text)} to use the file's content; to keep the words "${text}" as they are, pipe them to ${fileOption} -.`,
  );
}

export interface ReadTextOptions {
  /** What is read, for messages: "Markdown", "premise"... */
  what: string;
  /** Read stdin when `file` is left out and stdin is a pipe, and fail when there is nothing. */
  required: boolean;
  /** The command line up to the file argument, to show how to pipe text instead of a file name. */
  command?: string;
  /** nextAction when nothing was given. */
  missing?: string;
}

/**
 * Text from a file argument, or from stdin when the argument is "-" (or, for required input,
 * when it is left out and stdin is a pipe). Optional input never waits on stdin unasked. A file
 * argument is always a file: one that does not exist is refused, and when it looks like text
 * the message says how to pipe text instead.
 */
export async function readText(file: string | undefined, options: ReadTextOptions): Promise<string | undefined> {
  const { what, required } = options;
  if (file && file !== '-') {
    const looksLikeText = /\s|^#/.test(file) || file.length > 255;
    if (looksLikeText && !fs.existsSync(file)) {
      throw usage(
        `There is no file named "${file.length > 60 ? `${file.slice(0, 60)}…` : file}": this argument is a file to read the ${what} from.`,
        options.command
          ? `To pass the ${what} itself, pipe it: printf '%s\\n' ${shellQuote(file.slice(0, 200))} | ${options.command} -`
          : `To pass the ${what} itself, pipe it and pass "-".`,
      );
    }
    return readFileBytes(file).toString('utf8');
  }
  if (file === '-' || (required && !process.stdin.isTTY)) return (await readStdin()).toString('utf8');
  if (required) throw usage(`No ${what} given.`, options.missing ?? `Pass a file, or "-" and pipe the ${what} on stdin.`);
  return undefined;
}

/** Asks yes/no on the terminal; refuses (usage error) when there is no terminal to ask on. */
export async function confirm(question: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!process.stdin.isTTY || !process.stderr.isTTY) {
    throw usage('Refusing to do this without confirmation.', 'Pass --yes to confirm (no terminal to ask on).');
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  const answer = await new Promise<string>((resolve) => rl.question(`${question} [y/N] `, resolve));
  rl.close();
  if (!/^y(es)?$/i.test(answer.trim())) throw new CliError('cancelled', 'Cancelled; nothing was changed.');
}
