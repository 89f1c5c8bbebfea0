import type { ActionDefinition } from './types';
import { noConfig } from './schema';

/** Succeeds with the input as output: for trying a trigger end to end. */
const echo: ActionDefinition = {
  parseConfig: noConfig,
  run: (input) => input,
};

export default echo;
