import { oneOf, readSetting, type EnvSource } from '../src/kernel/config';

// 'http' logs one line per request; 'info' or 'warn' quiets it (tests run at 'warn').
export const settings = {
  level: oneOf('LOG_LEVEL', ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'], { default: 'http' }),
};

export default ({ env }: { env: EnvSource }) => ({ level: readSetting(settings.level, env) });
