import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { charsetFromContentType, charsetFromMeta, decodeHtml } from '../../src/plugins/quire/server/src/domain/html-text';
import { extractLinkPreview } from '../../src/plugins/quire/server/src/domain/link-preview';

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'unfurl', name), 'utf8');

describe('decodeHtml', () => {
  it('reads the charset from the Content-Type header first', () => {
    const bytes = iconv.encode('<title>Café</title>', 'windows-1252');
    expect(decodeHtml(bytes, 'text/html; charset=ISO-8859-1')).toBe('<title>Café</title>');
    expect(decodeHtml(iconv.encode('<p>日本</p>', 'shift_jis'), 'text/html;charset="Shift_JIS"')).toBe('<p>日本</p>');
  });

  it('falls back to <meta charset> and http-equiv, then UTF-8', () => {
    expect(decodeHtml(iconv.encode(fixture('charset-latin.html'), 'windows-1252'), 'text/html')).toContain('Café crème – déjà vu');
    expect(decodeHtml(iconv.encode(fixture('charset-sjis.html'), 'shift_jis'), 'text/html')).toContain('日本語のタイトル');
    expect(decodeHtml(Buffer.from('<p>ünïcode</p>'), undefined)).toBe('<p>ünïcode</p>');
  });

  it('honours a byte-order mark over everything else, and ignores unknown labels', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('<p>é</p>', 'utf-16le')]);
    expect(decodeHtml(utf16, 'text/html; charset=windows-1252')).toBe('<p>é</p>');
    expect(decodeHtml(Buffer.from('<p>é</p>'), 'text/html; charset=x-made-up')).toBe('<p>é</p>');
    expect(charsetFromContentType('text/html; charset=latin1')).toBe('windows-1252');
    expect(charsetFromMeta(Buffer.from('<meta charset="utf-16">'))).toBe('utf-16');
    expect(decodeHtml(Buffer.from('<meta charset="utf-16"><p>é</p>'))).toBe('<meta charset="utf-16"><p>é</p>');
  });
});

describe('extractLinkPreview', () => {
  const page = 'https://example.com/blog/post?id=1';

  it('prefers OpenGraph', async () => {
    expect(await extractLinkPreview(page, fixture('opengraph.html'))).toEqual({
      url: page,
      host: 'example.com',
      title: 'The OpenGraph Title',
      description: 'What the OpenGraph description says.',
      image: 'https://cdn.example.com/cover.png',
    });
  });

  it('reads Twitter cards', async () => {
    expect(await extractLinkPreview(page, fixture('twitter.html'))).toMatchObject({
      title: 'A Twitter Card Title',
      description: 'The card description.',
      image: 'https://cdn.example.com/card.jpg',
    });
  });

  it('falls back to <title> and the first meta description, and answers "" for what is missing', async () => {
    expect(await extractLinkPreview(page, fixture('bare.html'))).toEqual({
      url: page,
      host: 'example.com',
      title: 'Just a title',
      description: 'The first meta description.',
      image: '',
    });
    expect(await extractLinkPreview(page, '<html><body></body></html>')).toEqual({ url: page, host: 'example.com', title: '', description: '', image: '' });
  });

  it('makes a relative image absolute against the final URL', async () => {
    const preview = await extractLinkPreview('https://example.com/a/b/page.html', fixture('relative-image.html'));
    expect(preview.image).toBe('https://example.com/a/images/cover.jpg?size=large');
  });

  it('drops an image that is not http(s), and the host has no port', async () => {
    const preview = await extractLinkPreview('http://example.com:8080/x', fixture('hostile.html'));
    expect(preview).toMatchObject({ host: 'example.com', title: 'Hostile page', image: '' });
  });

  it('cuts very long titles and descriptions', async () => {
    const long = 'word '.repeat(1000);
    const preview = await extractLinkPreview(page, `<title>${long}</title><meta name="description" content="${long}">`);
    expect(preview.title.length).toBeLessThanOrEqual(300);
    expect(preview.description.length).toBeLessThanOrEqual(1000);
    expect(preview.title.endsWith('…')).toBe(true);
  });
});
