import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { DEFAULT_DEVICE_NAME, DEVICE_NAME_MAX } from '../domain/device-login';
import { parseInput } from '../domain/validation';
import { ok } from './respond';

export const loginRequestInput = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(DEVICE_NAME_MAX, `must be at most ${DEVICE_NAME_MAX} characters`)
    // It is shown on the approval page and becomes the key's name: one printable line.
    .regex(/^[^\p{Cc}\p{Cf}\u2028\u2029]*$/u, 'must be one line of printable characters')
    .optional(),
});

export const loginCompleteInput = z.strictObject({
  deviceCode: z.string().min(1, 'must not be empty').max(200, 'is not a device code'),
});

const COMPLETE_NEXT = 'Send the deviceCode that POST /api/cli/login-request returned.';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const logins = () => strapi.plugin('quire').service('cliLogin');
  return {
    async request(ctx) {
      const input = parseInput(loginRequestInput, ctx.request.body ?? {});
      ok(ctx, await logins().request(input.name ?? DEFAULT_DEVICE_NAME, ctx.request.ip ?? ''));
    },
    async complete(ctx) {
      const input = parseInput(loginCompleteInput, ctx.request.body ?? {}, COMPLETE_NEXT);
      ok(ctx, await logins().complete(input.deviceCode, ctx.request.ip ?? ''));
    },
  };
};
