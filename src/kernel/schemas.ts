/** zod shapes both plugins' schemas use. */
import { z } from 'zod';

/** An ISO-8601 time in UTC, as every timestamp of the API (one component in the OpenAPI document). */
export const timestamp = z.iso.datetime().meta({ id: 'Timestamp', description: 'An ISO-8601 time in UTC.' });

/** The answer of a DELETE: the id of what is gone. */
export const deletedId = (what: string) => z.strictObject({ id: z.string().describe(`The id of the ${what} deleted.`) });
