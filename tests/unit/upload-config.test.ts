import pluginsConfig, { uploadConfig } from '../../config/plugins';

/** A stand-in for Strapi's `env` helper over a plain object. */
function envOf(values: Record<string, string>) {
  const env = (name: string, fallback?: string) => values[name] ?? fallback;
  env.bool = (name: string, fallback?: boolean) => (name in values ? values[name] === 'true' : fallback);
  env.int = (name: string, fallback?: number) => (name in values ? Number(values[name]) : fallback);
  env.array = (name: string) => (values[name] ?? '').split(',');
  return env;
}

const S3 = {
  UPLOAD_PROVIDER: 'aws-s3',
  S3_BUCKET: 'media',
  S3_REGION: 'eu-west-3',
  S3_ENDPOINT: 'https://s3.example.net',
  S3_ACCESS_KEY_ID: 'AKIA',
  S3_SECRET_ACCESS_KEY: 'secret',
  S3_BASE_URL: 'https://cdn.example.net/media',
  S3_ROOT_PATH: 'quire',
  S3_FORCE_PATH_STYLE: 'true',
};

describe('upload provider configuration', () => {
  it('is the local provider by default', () => {
    expect(uploadConfig(envOf({}))).toEqual({ provider: 'local' });
    expect((pluginsConfig as any)({ env: envOf({}) }).upload.config.provider).toBe('local');
  });

  it('maps the S3_* variables onto the aws-s3 provider', () => {
    expect(uploadConfig(envOf(S3))).toEqual({
      provider: 'aws-s3',
      providerOptions: {
        baseUrl: 'https://cdn.example.net/media',
        rootPath: 'quire',
        s3Options: {
          region: 'eu-west-3',
          endpoint: 'https://s3.example.net',
          forcePathStyle: true,
          credentials: { accessKeyId: 'AKIA', secretAccessKey: 'secret' },
          params: { Bucket: 'media', ACL: 'public-read' },
        },
      },
    });
  });

  it('sends no ACL with S3_ACL=none and leaves credentials to the AWS chain without keys', () => {
    const config: any = uploadConfig(envOf({ UPLOAD_PROVIDER: 'aws-s3', S3_BUCKET: 'b', S3_ACL: 'none' }));
    expect(config.providerOptions.s3Options).toEqual({ region: 'us-east-1', endpoint: undefined, forcePathStyle: false, params: { Bucket: 'b', ACL: undefined } });
    expect('ACL' in config.providerOptions.s3Options.params).toBe(true); // present and undefined: the provider then sends none
  });

  it('fails at boot on a wrong provider, a missing bucket or a relative base URL', () => {
    expect(() => uploadConfig(envOf({ UPLOAD_PROVIDER: 's3' }))).toThrow(/"local" or "aws-s3"/);
    expect(() => uploadConfig(envOf({ UPLOAD_PROVIDER: 'aws-s3' }))).toThrow(/S3_BUCKET/);
    expect(() => uploadConfig(envOf({ ...S3, S3_BASE_URL: 'cdn.example.net' }))).toThrow(/S3_BASE_URL/);
  });
});
