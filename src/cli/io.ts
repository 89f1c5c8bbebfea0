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

/**
 * Text from a file argument, or from stdin when the argument is "-" (or, for required input,
 * when it is left out and stdin is a pipe). Optional input never waits on stdin unasked.
 */
export async function readText(file: string | undefined, what: string, required: boolean): Promise<string | undefined> {
  if (file && file !== '-') return readFileBytes(file).toString('utf8');
  if (file === '-' || (required && !process.stdin.isTTY)) return (await readStdin()).toString('utf8');
  if (required) throw usage(`No ${what} given.`, `Pass a file, or "-" and pipe the ${what} on stdin.`);
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
