/** Input schemas of the CLI's device login. */
import { z } from 'zod';
import { withHint } from '#kernel/parse';
import { DEFAULT_DEVICE_NAME, DEVICE_NAME_MAX } from '../../domain/device-login';

/** `POST /api/cli/login-request`: the device's name, shown on the approval page. */
export const loginRequestInput = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(DEVICE_NAME_MAX, `must be at most ${DEVICE_NAME_MAX} characters`)
    // It is shown on the approval page and becomes the key's name: one printable line.
    .regex(/^[^\p{Cc}\p{Cf}\u2028\u2029]*$/u, 'must be one line of printable characters')
    .optional()
    .describe(`The device's name (default "${DEFAULT_DEVICE_NAME}").`),
});

/** `POST /api/cli/login-complete`. */
export const loginCompleteInput = withHint(
  z.strictObject({
    deviceCode: z.string().min(1, 'must not be empty').max(200, 'is not a device code'),
  }),
  'Send the deviceCode that POST /api/cli/login-request returned.',
);
