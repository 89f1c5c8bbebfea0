/**
 * Compile-time only: the services other plugins call keep the shapes the kernel promises them
 * (contracts/plugin-services.ts). Nothing here runs; a mismatch fails `npm run compile`.
 */
import type { TriggersServices } from '../../../../../contracts/plugin-services';
import type skills from './skills';

type Provided = {
  skills: ReturnType<typeof skills>;
};

type Holds<T extends true> = T;
export type ServicesKeepTheirContract = Holds<Provided extends TriggersServices ? true : false>;
