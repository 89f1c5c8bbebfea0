export default ({ env }) => {
  const host = env('HOST', '127.0.0.1');
  const port = env.int('PORT', 1337);
  // PUBLIC_URL is what links and uploaded images are built on; it must be absolute.
  const url = (env('PUBLIC_URL', '') || `http://${host}:${port}`).replace(/\/+$/, '');
  return {
    host,
    port,
    url,
    app: { keys: env.array('APP_KEYS') },
    proxy: { koa: env.bool('TRUST_PROXY', false) },
  };
};
