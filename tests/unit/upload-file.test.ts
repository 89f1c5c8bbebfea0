import { Readable } from 'node:stream';
import { ApiError } from '../../src/kernel/errors';
import {
  acceptedType,
  checkDeclaredLength,
  checkImage,
  displayName,
  readBody,
  UPLOAD_MAX_BYTES,
} from '../../src/plugins/quire/server/src/domain/upload-file';
import { frameBombGif, pixelBombPng, pngOfSize, sampleImage, SAMPLE_SVG, type RasterType } from '../helpers/images';

async function refusal(work: Promise<unknown> | (() => unknown)): Promise<ApiError> {
  try {
    await (typeof work === 'function' ? work() : work);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    return error as ApiError;
  }
  throw new Error('expected a refusal');
}

const RASTER: RasterType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'];

describe('acceptedType', () => {
  it('accepts the six image types, parameters and case aside', () => {
    expect(acceptedType('image/png')).toBe('image/png');
    expect(acceptedType('IMAGE/SVG+XML; charset=utf-8')).toBe('image/svg+xml');
    for (const t of ['image/jpeg', 'image/gif', 'image/webp', 'image/avif']) expect(acceptedType(t)).toBe(t);
  });

  it('refuses a missing or other type, naming it', async () => {
    expect((await refusal(() => acceptedType(undefined))).message).toMatch(/Content-Type is required/);
    for (const t of ['image/bmp', 'image/jpg', 'text/html', 'application/octet-stream', 'multipart/form-data; boundary=x', 'image/tiff']) {
      expect((await refusal(() => acceptedType(t))).message).toContain(t.split(';')[0]);
    }
  });
});

describe('readBody', () => {
  const chunks = (total: number, size = 65536) =>
    Readable.from(
      (function* () {
        for (let sent = 0; sent < total; sent += size) yield Buffer.alloc(Math.min(size, total - sent), 1);
      })(),
    );

  it('reads exactly the limit, and refuses one byte more with the limit in the message', async () => {
    expect((await readBody(chunks(UPLOAD_MAX_BYTES))).length).toBe(4_500_000);
    const error = await refusal(readBody(chunks(UPLOAD_MAX_BYTES + 1)));
    expect(error.message).toContain('4,500,000 bytes');
    const small = await refusal(readBody(chunks(11, 3), 10));
    expect(small.message).toContain('10 bytes');
  });

  it('refuses a declared length over the limit before reading', async () => {
    expect(() => checkDeclaredLength('4500000')).not.toThrow();
    expect(() => checkDeclaredLength(undefined)).not.toThrow();
    expect((await refusal(() => checkDeclaredLength('4500001'))).message).toContain('4,500,000');
  });
});

describe('displayName', () => {
  it.each([
    ['photo.png', 'image/png', 'photo.png'],
    ['Holiday.JPG', 'image/jpeg', 'Holiday.jpg'],
    ['../../etc/passwd', 'image/png', 'passwd.png'],
    ['..\\..\\windows\\system32\\cmd.exe', 'image/gif', 'cmd.exe.gif'],
    ['/etc/shadow', 'image/webp', 'shadow.webp'],
    ['C:\\Users\\me\\pic.avif', 'image/avif', 'pic.avif'],
    ['%2e%2e%2f%2e%2e%2fsecret.png', 'image/png', 'secret.png'],
    ['....//....//x.svg', 'image/svg+xml', 'x.svg'],
    ['..', 'image/png', 'image.png'],
    ['', 'image/png', 'image.png'],
    [undefined, 'image/jpeg', 'image.jpg'],
    ['a<b>c:"d|e?f*.png', 'image/png', 'abcdef.png'],
    ['x\u0001\u001f\u007fy.png', 'image/png', 'xy.png'],
    ['caf%C3%A9 cr%C3%A8me.png', 'image/png', 'café crème.png'],
    [Buffer.from('naïve.png', 'utf8').toString('latin1'), 'image/png', 'naïve.png'],
    ['evil.svg.png', 'image/png', 'evil.svg.png'],
    ['shell.php', 'image/png', 'shell.php.png'],
  ])('turns %j (%s) into %j', (header, type, expected) => {
    expect(displayName(header as string | undefined, type)).toBe(expected);
  });

  it('caps very long names', () => {
    expect(displayName(`${'a'.repeat(1000)}.png`, 'image/png')).toBe(`${'a'.repeat(200)}.png`);
  });
});

describe('checkImage', () => {
  it.each(RASTER)('accepts a real %s and reports its size, keeping the bytes', async (type) => {
    const bytes = await sampleImage(type);
    const image = await checkImage(bytes, type);
    expect(image).toMatchObject({ mime: type, width: 320, height: 200 });
    expect(image.bytes.equals(bytes)).toBe(true);
  });

  it('accepts an SVG, sanitised, with its size', async () => {
    const image = await checkImage(Buffer.from(SAMPLE_SVG), 'image/svg+xml');
    expect(image).toMatchObject({ mime: 'image/svg+xml', ext: '.svg', width: 120, height: 80 });
  });

  it('accepts an SVG without any size (browsers show it; the rasteriser cannot size it)', async () => {
    const image = await checkImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>'), 'image/svg+xml');
    expect(image).toMatchObject({ width: null, height: null });
  });

  it('refuses an empty body', async () => {
    expect((await refusal(checkImage(Buffer.alloc(0), 'image/png'))).message).toMatch(/empty/);
  });

  it('refuses first bytes that do not match the declared type, saying what they are', async () => {
    const jpeg = await sampleImage('image/jpeg');
    expect((await refusal(checkImage(jpeg, 'image/png'))).message).toBe(
      'The file is not a PNG image as Content-Type says: its content is image/jpeg.',
    );
    expect((await refusal(checkImage(Buffer.from('<html>hello</html>'), 'image/gif'))).message).toMatch(
      /not a GIF image .* first bytes are not those of any accepted image type/,
    );
    expect((await refusal(checkImage(await sampleImage('image/png'), 'image/svg+xml'))).message).toMatch(/UTF-8|well-formed/);
    expect((await refusal(checkImage(Buffer.from(SAMPLE_SVG), 'image/webp'))).message).toMatch(/not a WebP image/);
  });

  it('refuses an image whose header is right but whose data is damaged', async () => {
    const png = await sampleImage('image/png', 400, 400);
    const damaged = Buffer.concat([png.subarray(0, 60), Buffer.alloc(200, 7)]);
    expect((await refusal(checkImage(damaged, 'image/png'))).message).toMatch(/not a valid image/);
  });

  it('refuses pixel bombs before decoding them: a huge PNG, an animation of many frames, a huge SVG', async () => {
    expect((await refusal(checkImage(await pixelBombPng(), 'image/png'))).message).toMatch(/more than 40,000,000 pixels/);
    // 12 frames of 100 x 100: each far under a 100,000-pixel limit, together over it
    expect((await refusal(checkImage(await frameBombGif(12, 100), 'image/gif', 100_000))).message).toMatch(
      /more than 100,000 pixels \(all frames counted\)/,
    );
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="1" height="1"/></svg>';
    expect((await refusal(checkImage(Buffer.from(svg), 'image/svg+xml'))).message).toMatch(/pixels/);
    // the limit is a parameter: the same small animation passes a higher one
    await expect(checkImage(await frameBombGif(3, 100), 'image/gif', 40_000)).resolves.toMatchObject({ width: 100, height: 100 });
  });

  it('builds a PNG of an exact size that is still a valid image', async () => {
    const png = await pngOfSize(UPLOAD_MAX_BYTES);
    expect(png.length).toBe(4_500_000);
    await expect(checkImage(png, 'image/png')).resolves.toMatchObject({ width: 16, height: 16 });
  });
});
