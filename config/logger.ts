export default ({ env }) => ({
  // 'http' logs one line per request; 'info' or 'warn' quiets it (tests run at 'warn').
  level: env('LOG_LEVEL', 'http'),
});
