/**
 * Compile-time only: the services other plugins call keep the shapes the kernel promises them
 * (contracts/plugin-services.ts), their input schemas included.
 * Nothing here runs; a mismatch fails `npm run compile`.
 */
import type { QuireServices } from '../../../../../contracts/plugin-services';
import type articles from './articles';
import type inputs from './inputs';
import type notes from './notes';

type Provided = {
  inputs: ReturnType<typeof inputs>;
  articles: ReturnType<typeof articles>;
  notes: ReturnType<typeof notes>;
};

type Holds<T extends true> = T;
export type ServicesKeepTheirContract = Holds<Provided extends QuireServices ? true : false>;
