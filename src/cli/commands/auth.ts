import { spawn } from 'node:child_process';
import os from 'node:os';
import type { Command } from 'commander';
import { Client, seg } from '../client';
import { findProfile, removeProfile, setProfile, updateConfig, type PendingLogin, type SavedUser } from '../config';
import type { Context } from '../context';
import { CliError, usage } from '../errors';
import { readStdin } from '../io';
import { act, examples } from '../action';
import { when } from '../output';
import type { Data } from '../render';

interface LoginOptions {
  key?: string;
  name?: string;
  browser: boolean;
  wait: boolean;
  resume?: boolean;
  once?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MAX_NETWORK_FAILURES = 3;

export function defaultDeviceName(): string {
  return `quire CLI on ${os.hostname() || 'this computer'}`.slice(0, 100);
}

/** Opens the approval page where a person can see it; never on a headless machine or in CI. */
/**
 * The verification URLs a server sends, checked before they are shown or opened: http(s) on the
 * origin of the server the CLI talks to. Anything else (a `file:` URL, a command, another site)
 * would have the CLI open whatever a hostile or confused server chose.
 */
export function checkVerificationUrls(urls: readonly string[], serverUrl: string): void {
  const origin = new URL(serverUrl).origin;
  for (const raw of urls) {
    let url: URL | null = null;
    try {
      url = new URL(raw);
    } catch {
      // reported below
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin) {
      throw new CliError(
        'failure',
        `The server sent a verification URL that is not an http(s) page of ${origin}: ${JSON.stringify(String(raw).slice(0, 200))}.`,
        'Check the server URL (QUIRE_URL or --url); the server\'s PUBLIC_URL must be the address you reach it at.',
      );
    }
  }
}

function openBrowser(url: string, env: NodeJS.ProcessEnv): boolean {
  if (!process.stderr.isTTY || env.CI || env.SSH_CONNECTION) return false;
  const command =
    process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['explorer.exe', url]
        : env.DISPLAY || env.WAYLAND_DISPLAY
          ? ['xdg-open', url]
          : null;
  if (!command) return false;
  try {
    const child = spawn(command[0], command.slice(1), { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}

function instructions(pending: PendingLogin): string {
  return [
    'To log in, open this page in a browser (on any device):',
    '',
    `    ${pending.verificationUrl}`,
    '',
    `and enter the code:  ${pending.userCode}`,
    '',
    `Or open ${pending.verificationUrlComplete}`,
    `The code expires at ${when(pending.expiresAt)}.`,
  ].join('\n');
}

async function whoIs(url: string, key: string): Promise<{ user: SavedUser; via: string; text: string }> {
  const me = await new Client(url, key).call<Data<'me'>>('GET', '/auth/me');
  return { user: me.envelope.data.user, via: me.envelope.data.via, text: me.text };
}

/**
 * Polls login-complete the way RFC 8628 asks: wait `interval` between polls, add to it on
 * slow-down, keep going while pending, stop on a decision or expiry.
 */
async function pollForKey(ctx: Context, pending: PendingLogin, once: boolean, waitFirst: boolean) {
  let interval = pending.interval;
  let failures = 0;
  let first = true;
  for (;;) {
    if (!first || waitFirst) await sleep(interval * 1000);
    first = false;
    try {
      return await ctx.client.call<Data<'keyIssued'>>('POST', '/cli/login-complete', { auth: false, body: { deviceCode: pending.deviceCode } });
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      const retryAfter = Number(error.headers?.get('retry-after'));
      switch (error.code) {
        case 'authorization-pending':
          if (once) throw error;
          break;
        case 'slow-down':
          interval = Number.isFinite(retryAfter) && retryAfter > interval ? retryAfter : interval + 5;
          if (once) throw error;
          break;
        case 'rate-limited':
          if (once) throw error;
          await sleep((Number.isFinite(retryAfter) ? retryAfter : interval) * 1000);
          break;
        case 'network-error':
        case 'bad-response':
        case 'internal':
          failures += 1;
          if (once || failures > MAX_NETWORK_FAILURES) throw error;
          break;
        default:
          // access-denied, expired-token, not-found: this login is over.
          if (ctx.profile?.pending) {
            updateConfig((config) => {
              const saved = findProfile(config, ctx.url)?.profile;
              if (saved) delete saved.pending;
            }, ctx.configFile);
          }
          throw error;
      }
    }
  }
}

async function deviceLogin(ctx: Context, options: LoginOptions) {
  const { out } = ctx;
  let pending: PendingLogin;
  if (options.resume) {
    const saved = ctx.profile?.pending;
    if (!saved) throw usage(`No login is waiting for ${ctx.url}.`, 'Start one with "quire login" (or "quire login --no-wait").');
    pending = saved;
  } else {
    const name = options.name ?? defaultDeviceName();
    const res = await ctx.client.call<Data<'loginRequested'>>('POST', '/cli/login-request', { auth: false, body: { name } });
    const data = res.envelope.data;
    checkVerificationUrls([data.verificationUrl, data.verificationUrlComplete], ctx.url);
    pending = {
      deviceCode: data.deviceCode,
      userCode: data.userCode,
      verificationUrl: data.verificationUrl,
      verificationUrlComplete: data.verificationUrlComplete,
      interval: data.interval,
      expiresAt: new Date(Date.now() + data.expiresIn * 1000).toISOString(),
      name,
    };
    if (!options.wait) {
      updateConfig((config) => {
        setProfile(config, ctx.url, { ...findProfile(config, ctx.url)?.profile, pending });
      }, ctx.configFile);
      out.result(res, () => `${instructions(pending)}\n\nThen run "quire login --resume" to finish.`);
      return;
    }
    if (out.json) out.out(res.text);
    out.info(instructions(pending));
    if (options.browser && openBrowser(pending.verificationUrlComplete, ctx.env)) out.info('(Opened it in your browser.)');
    out.info('\nWaiting for approval... (Ctrl-C to stop)');
  }

  const issued = await pollForKey(ctx, pending, Boolean(options.once), !options.resume);
  const { key, secret } = issued.envelope.data;
  const me = await whoIs(ctx.url, secret);
  const previous = ctx.profile;
  updateConfig((config) => {
    setProfile(config, ctx.url, { apiKey: secret, keyId: key.id, keyName: key.name, createdByLogin: true, user: me.user, savedAt: new Date().toISOString() });
    config.defaultUrl = ctx.url;
  }, ctx.configFile);
  // The key an earlier "quire login" made here is replaced: revoke it rather than leave it behind.
  if (previous?.createdByLogin && previous.keyId && previous.apiKey && previous.keyId !== key.id) {
    await new Client(ctx.url, secret).call('DELETE', `/keys/${seg(previous.keyId)}`).catch(() => undefined);
  }
  out.composed({ url: ctx.url, user: me.user, key, configFile: ctx.configFile }, () =>
    `Logged in to ${ctx.url} as ${me.user.username} (${me.user.email}).\nThe key "${key.name}" is saved in ${ctx.configFile}.`,
  );
}

async function keyLogin(ctx: Context, given: string) {
  const key = (given === '-' ? (await readStdin()).toString('utf8') : given).trim();
  if (!key) throw usage('The key is empty.', 'Pass the key as --key <key>, or "--key -" and pipe it on stdin.');
  const me = await whoIs(ctx.url, key);
  updateConfig((config) => {
    setProfile(config, ctx.url, { apiKey: key, createdByLogin: false, user: me.user, savedAt: new Date().toISOString() });
    config.defaultUrl = ctx.url;
  }, ctx.configFile);
  ctx.out.composed({ url: ctx.url, user: me.user, configFile: ctx.configFile }, () =>
    `Logged in to ${ctx.url} as ${me.user.username} (${me.user.email}) with the given key.\nIt is saved in ${ctx.configFile}.`,
  );
}

export function registerAuth(program: Command) {
  program
    .command('login')
    .description('Log in: approve this device in a browser (device code), or save an existing API key')
    .option('--key <key>', 'save this API key instead of the browser flow ("-" reads it from stdin)')
    .option('--name <name>', 'the name of this device, shown on the approval page and given to the key')
    .option('--no-browser', 'never try to open a browser (nothing is opened on a headless machine anyway)')
    .option('--no-wait', 'print the code and the URL and exit; finish later with --resume')
    .option('--resume', 'finish a login started with --no-wait')
    .option('--once', 'with --resume: poll once; exit status 9 while it still waits for approval')
    .addHelpText(
      'after',
      examples([
        'quire login                                  # prints a code and a URL, waits for you to approve',
        'quire login --url https://quire.example.com  # log in to another server (it becomes the default)',
        'echo "$KEY" | quire login --key -            # save an existing key (kept out of shell history)',
        'quire login --no-wait --json                 # agents: get the code and URL as JSON, then',
        'quire login --resume --json                  #   wait for the person to approve',
      ]),
    )
    .action(
      act(async (ctx, options: LoginOptions) => {
        if (options.key !== undefined) {
          if (options.resume || options.wait === false || options.once) throw usage('--key cannot be combined with --no-wait, --resume or --once.');
          return keyLogin(ctx, options.key);
        }
        if (options.once && !options.resume) throw usage('--once only goes with --resume.');
        if (options.resume && options.wait === false) throw usage('--resume and --no-wait cannot be combined.');
        if (ctx.keySource === 'QUIRE_API_KEY') ctx.out.info('Note: QUIRE_API_KEY is set, and it takes precedence over the key this login saves.');
        return deviceLogin(ctx, options);
      }),
    );

  program
    .command('logout')
    .description('Forget the saved key for the server, revoking it when "quire login" created it')
    .option('--keep-key', 'forget the key here without revoking it on the server')
    .addHelpText('after', examples(['quire logout', 'quire logout --url https://quire.example.com']))
    .action(
      act(async (ctx, options: { keepKey?: boolean }) => {
        const profile = ctx.profile;
        if (ctx.keySource === 'QUIRE_API_KEY') ctx.out.info('Note: QUIRE_API_KEY is set; unset it too, or commands keep using it.');
        if (!profile?.apiKey) {
          updateConfig((config) => removeProfile(config, ctx.url), ctx.configFile);
          return ctx.out.composed({ url: ctx.url, loggedOut: false, revokedKeyId: null }, () => `Not logged in to ${ctx.url}; nothing to do.`);
        }
        let revokedKeyId: string | null = null;
        let note = '';
        if (profile.createdByLogin && profile.keyId && !options.keepKey) {
          try {
            await new Client(ctx.url, profile.apiKey).call('DELETE', `/keys/${seg(profile.keyId)}`);
            revokedKeyId = profile.keyId;
          } catch (error) {
            if (!(error instanceof CliError)) throw error;
            if (error.code === 'unauthenticated' || error.code === 'not-found') note = 'The key was already revoked.';
            else note = `Could not revoke key ${profile.keyId} (${error.message}); revoke it later with "quire keys revoke ${profile.keyId}".`;
          }
        }
        updateConfig((config) => removeProfile(config, ctx.url), ctx.configFile);
        if (note) ctx.out.info(note);
        ctx.out.composed({ url: ctx.url, loggedOut: true, revokedKeyId }, () =>
          `Logged out of ${ctx.url}.${revokedKeyId ? ` The key "${profile.keyName ?? revokedKeyId}" is revoked.` : ''}`,
        );
      }),
    );

  program
    .command('whoami')
    .description('Show who the current credential belongs to, and where it comes from')
    .addHelpText('after', examples(['quire whoami', 'QUIRE_API_KEY=qk_... quire whoami --json']))
    .action(
      act(async (ctx) => {
        const res = await ctx.client.call<Data<'me'>>('GET', '/auth/me');
        const { user, via } = res.envelope.data;
        ctx.out.result(res, () =>
          [
            `${user.username} <${user.email}> (user ${user.id})`,
            `Server:     ${ctx.url}`,
            `Credential: ${via === 'key' ? `API key ${ctx.key!.slice(0, 9)}…` : 'session token'} (from ${ctx.keySource})`,
          ].join('\n'),
        );
      }),
    );
}
