import path from 'node:path';
import type { Command } from 'commander';
import { act, examples } from '../action';
import { usage } from '../errors';
import { readFileBytes } from '../io';
import type { Data } from '../render';

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
};

/** Header values must be ASCII: the name is sent percent-encoded, which the server decodes. */
const headerName = (name: string) => encodeURIComponent(name.slice(0, 200)) || 'upload';

export function registerMedia(program: Command) {
  program
    .command('upload <file>')
    .description('Upload an image (png, jpeg, gif, webp, avif, svg; at most 4.5 MB): prints its public URL')
    .option('--type <mime>', 'the image type, when the file name does not tell it')
    .addHelpText('after', examples(['quire upload figure.png', 'URL=$(quire upload chart.svg)', 'quire upload scan --type image/jpeg']))
    .action(
      act(async (ctx, file: string, options: { type?: string }) => {
        const type = options.type ?? TYPES[path.extname(file).toLowerCase()];
        if (!type) throw usage(`Cannot tell the image type of ${file}.`, `Pass --type (one of ${[...new Set(Object.values(TYPES))].join(', ')}).`);
        const data = readFileBytes(file);
        const res = await ctx.client.call<Data<'imageHosted'>>('POST', '/upload', {
          raw: { data, headers: { 'content-type': type, 'x-filename': headerName(path.basename(file)) } },
          timeoutMs: 120_000,
        });
        ctx.out.result(res, () => res.envelope.data.url);
      }),
    );

  program
    .command('unfurl <url>')
    .description('Fetch a link\'s preview (title, description, image), as the editor\'s embed card shows it')
    .addHelpText('after', examples(['quire unfurl https://example.com/post']))
    .action(
      act(async (ctx, url: string) => {
        const res = await ctx.client.call<Data<'preview'>>('GET', '/unfurl', { query: { url } });
        const d = res.envelope.data;
        ctx.out.result(res, () =>
          [`Title:       ${d.title || '-'}`, `Description: ${d.description || '-'}`, `Image:       ${d.image || '-'}`, `URL:         ${d.url}`, `Host:        ${d.host}`].join('\n'),
        );
      }),
    );
}
