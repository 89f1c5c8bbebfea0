/** zod shapes both plugins' schemas use. */
import { z } from 'zod';

/** An ISO-8601 time in UTC, as every timestamp of the API (one component in the OpenAPI document). */
export const timestamp = z.iso.datetime().meta({ id: 'Timestamp', description: 'An ISO-8601 time in UTC.' });

/** The answer of a DELETE: the id of what is gone. */
export const deletedId = (what: string) => z.strictObject({ id: z.string().describe(`The id of the ${what} deleted.`) });

/**
 * Compile-time agreement between a schema's type and a shape declared elsewhere (domain code
 * owns some shapes and imports no schema): `type Checked = Agrees<SameShape<z.infer<typeof s>, Shape>>`
 * fails to compile when the two differ in either direction.
 */
export type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type Agrees<T extends true> = T;
