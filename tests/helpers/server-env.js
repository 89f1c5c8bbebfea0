'use strict';
/**
 * The environment of a server started for tests or the benchmark: fresh random secrets,
 * telemetry and cron off, a high login rate limit. Plain JavaScript, so bench/run.js can
 * require it too.
 */
const { randomBytes } = require('node:crypto');

const random = () => randomBytes(24).toString('base64');

/** @returns {Record<string, string>} */
function serverEnv() {
  return {
    HOST: '127.0.0.1',
    APP_KEYS: [random(), random()].join(','),
    API_TOKEN_SALT: random(),
    ADMIN_JWT_SECRET: random(),
    TRANSFER_TOKEN_SALT: random(),
    JWT_SECRET: random(),
    ENCRYPTION_KEY: random(),
    STRAPI_TELEMETRY_DISABLED: 'true',
    STRAPI_DISABLE_CRON: 'true',
  };
}

module.exports = { serverEnv };
