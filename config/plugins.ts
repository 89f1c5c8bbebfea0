import { bool, ConfigError, oneOf, readSettings, text, url, type EnvSource } from '../src/kernel/config';

/**
 * Uploads: the local provider (public/uploads, served by Strapi) by default, or any S3 or
 * S3-compatible bucket with UPLOAD_PROVIDER=aws-s3 and the S3_* variables (README).
 */
export const uploadSettings = {
  provider: oneOf('UPLOAD_PROVIDER', ['local', 'aws-s3'], { default: 'local' }),
  bucket: text('S3_BUCKET', { optional: true }),
  region: text('S3_REGION', { default: 'us-east-1' }),
  endpoint: url('S3_ENDPOINT', { optional: true }),
  forcePathStyle: bool('S3_FORCE_PATH_STYLE', { default: false }),
  accessKeyId: text('S3_ACCESS_KEY_ID', { optional: true }),
  secretAccessKey: text('S3_SECRET_ACCESS_KEY', { optional: true }),
  baseUrl: url('S3_BASE_URL', { optional: true }),
  rootPath: text('S3_ROOT_PATH', { optional: true }),
  // "none" sends no ACL header (buckets with ACLs disabled, Cloudflare R2); objects must be public another way.
  acl: text('S3_ACL', { default: 'public-read' }),
};

export function uploadConfig(env: EnvSource) {
  const s3 = readSettings(uploadSettings, env);
  if (s3.provider === 'local') return { provider: 'local' };
  if (!s3.bucket) throw new ConfigError('UPLOAD_PROVIDER=aws-s3 needs S3_BUCKET: expected the name of the bucket');
  return {
    provider: 'aws-s3',
    providerOptions: {
      baseUrl: s3.baseUrl,
      rootPath: s3.rootPath,
      s3Options: {
        region: s3.region,
        endpoint: s3.endpoint,
        forcePathStyle: s3.forcePathStyle,
        // Without keys the AWS SDK's default chain applies (instance role, AWS_* variables).
        ...(s3.accessKeyId && s3.secretAccessKey ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } } : {}),
        params: { Bucket: s3.bucket, ACL: s3.acl === 'none' ? undefined : s3.acl },
      },
    },
  };
}

/** users-permissions: sessions (JWT) and the rate limit of its login and registration routes. */
export const authSettings = {
  jwtSecret: text('JWT_SECRET', { optional: true }),
  jwtExpiresIn: text('JWT_EXPIRES_IN', {
    default: '30d',
    pattern: /^\d+(\.\d+)?\s*(ms|s|m|h|d|w|y)?$/i,
    expected: 'a duration such as 3600 (seconds), 12h, 30d or 1y',
  }),
};

export default ({ env }: { env: EnvSource }) => {
  const auth = readSettings(authSettings, env);
  return {
    quire: { enabled: true, resolve: './src/plugins/quire' },
    triggers: { enabled: true, resolve: './src/plugins/triggers' },
    upload: { config: uploadConfig(env) },
    'users-permissions': {
      config: {
        jwtSecret: auth.jwtSecret,
        jwt: { expiresIn: auth.jwtExpiresIn },
        // Its own limiter (koa2-ratelimit: X-RateLimit-* headers, counters per process) is off: the
        // quire plugin's authRateLimit middleware limits these routes (AUTH_RATELIMIT_*).
        ratelimit: { enabled: false },
      },
    },
  };
};
