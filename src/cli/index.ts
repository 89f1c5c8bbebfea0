import { CommanderError } from 'commander';
import { CliError, EXIT } from './errors';
import { Output } from './output';
import { buildProgram } from './program';

/** Runs `quire` with these arguments; resolves to the exit status (never exits by itself). */
export async function main(argv: string[] = process.argv): Promise<number> {
  // `quire ... | head` closes stdout early: that is not an error worth a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  const json = argv.slice(2).includes('--json');
  try {
    await buildProgram().parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      // Commander has described the problem on stderr already.
      if (json) new Output(true).out(JSON.stringify({ success: false, error: { code: 'invalid-argument', message: error.message.replace(/^error: /, '') } }));
      return EXIT.usage;
    }
    const out = new Output(json);
    if (error instanceof CliError) {
      out.error(error);
      return error.exitCode;
    }
    out.error(new CliError('failure', (error as Error)?.message ?? String(error)));
    return EXIT.failure;
  }
}
