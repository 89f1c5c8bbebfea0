import type { ActionDefinition } from './types';
import { noConfig } from './schema';

/** Succeeds with the input as output: for trying a trigger end to end. */
const echo: ActionDefinition = {
  description: 'Succeeds with its input as output: for trying a trigger end to end. No config.',
  configExample: {},
  inputExample: { hello: 'world' },
  parseConfig: noConfig,
  run: (input) => input,
};

export default echo;
