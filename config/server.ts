import { bool, int, list, readSettings, text, trimTrailingSlashes, url, type EnvSource } from '../src/kernel/config';
import { redisSettings } from '../src/kernel/redis';

/** The app's Redis (src/kernel/redis.ts): shared by every plugin, its keys under this namespace by default. */
const redis = redisSettings('quire:');

export const settings = {
  host: text('HOST', { default: '127.0.0.1' }),
  port: int('PORT', { min: 1, max: 65_535, default: 1337 }),
  // What links and uploaded images are built on; it must be absolute.
  publicUrl: url('PUBLIC_URL', { optional: true }),
  // Strapi refuses to start without them; scripts/ensure-env.js writes them on first run.
  appKeys: list('APP_KEYS', { optional: true }),
  trustProxy: bool('TRUST_PROXY', { default: false }),
  // How many proxies append to X-Forwarded-For: the client address is the entry the outermost
  // of them appended, counted from the right; entries further left are whatever the client sent.
  proxyHops: int('TRUST_PROXY_HOPS', { min: 1, max: 10, default: 1 }),
};

export default ({ env }: { env: EnvSource }) => {
  const config = readSettings(settings, env);
  return {
    host: config.host,
    port: config.port,
    url: trimTrailingSlashes(config.publicUrl ?? `http://${config.host}:${config.port}`),
    app: { keys: config.appKeys },
    proxy: { koa: config.trustProxy, maxIpsCount: config.proxyHops },
    redis: readSettings(redis, env),
  };
};
