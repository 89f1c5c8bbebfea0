import zlib from 'node:zlib';

/** Small real images of every accepted type, made with sharp, plus hostile ones. */
import sharp from 'sharp';

export type RasterType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/avif';

export async function sampleImage(type: RasterType, width = 320, height = 200): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 30 } } });
  switch (type) {
    case 'image/png':
      return base.png().toBuffer();
    case 'image/jpeg':
      return base.jpeg({ quality: 80 }).toBuffer();
    case 'image/gif':
      return base.gif().toBuffer();
    case 'image/webp':
      return base.webp().toBuffer();
    case 'image/avif':
      return base.avif({ quality: 50, effort: 0 }).toBuffer();
  }
}

export const SAMPLE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="80" viewBox="0 0 120 80">' +
  '<defs><linearGradient id="g"><stop offset="0" stop-color="#c33"/><stop offset="1" stop-color="#33c"/></linearGradient>' +
  '<circle id="dot" r="4"/></defs>' +
  '<style>.label{font-family:sans-serif;fill:#222}</style>' +
  '<rect width="120" height="80" fill="url(#g)"/><use xlink:href="#dot" x="10" y="10"/>' +
  '<text class="label" x="10" y="50">Quire</text></svg>';

/** A PNG of side x side pixels (64 megapixels by default) that compresses to a few hundred kilobytes. */
export function pixelBombPng(side = 8000): Promise<Buffer> {
  return sharp({ create: { width: side, height: side, channels: 3, background: '#000' } }).png({ compressionLevel: 9 }).toBuffer();
}

/** An animated GIF whose frames add up to more pixels than the limit, although each frame is small. */
export async function frameBombGif(frames: number, size = 1000): Promise<Buffer> {
  const frame = (i: number) =>
    sharp({ create: { width: size, height: size, channels: 3, background: { r: (i * 4) % 256, g: i % 2 ? 255 : 0, b: 0 } } }).png().toBuffer();
  return sharp(await Promise.all(Array.from({ length: frames }, (_, i) => frame(i))), { join: { animated: true } }).gif().toBuffer();
}

/** Hostile SVGs: each must come out without script, handlers, foreignObject or external references. */
export const MALICIOUS_SVGS: Record<string, string> = {
  onload: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
  script: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="1" height="1"/></svg>',
  'script with href': '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><script xlink:href="https://evil.example/x.js"/></svg>',
  'cdata script': '<svg xmlns="http://www.w3.org/2000/svg"><desc><![CDATA[</desc><script>alert(1)</script>]]></desc></svg>',
  foreignObject:
    '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject width="100" height="100"><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert(1)"/></foreignObject></svg>',
  'foreignObject with html body':
    '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></body></foreignObject></svg>',
  'javascript link': '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="javascript:alert(1)"><text y="20">x</text></a></svg>',
  'javascript link, plain href': '<svg xmlns="http://www.w3.org/2000/svg"><a href=" JaVaScRiPt:alert(1)"><text y="20">x</text></a></svg>',
  'animate href': '<svg xmlns="http://www.w3.org/2000/svg"><a><animate attributeName="href" values="javascript:alert(1)"/><text y="20">x</text></a></svg>',
  'set href': '<svg xmlns="http://www.w3.org/2000/svg"><a><set attributeName="xlink:href" to="javascript:alert(1)"/><text y="20">x</text></a></svg>',
  onbegin: '<svg xmlns="http://www.w3.org/2000/svg"><animateTransform onbegin="alert(1)" attributeName="transform" type="scale" from="1" to="1" dur="1s"/></svg>',
  'use external': '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="http://127.0.0.1:9999/x.svg#id"/></svg>',
  'use data': '<svg xmlns="http://www.w3.org/2000/svg"><use href="data:image/svg+xml;base64,PHN2Zy8+#x"/></svg>',
  'image external': '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="http://169.254.169.254/latest/meta-data/"/></svg>',
  'image svg data': '<svg xmlns="http://www.w3.org/2000/svg"><image href="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+"/></svg>',
  'feImage external': '<svg xmlns="http://www.w3.org/2000/svg"><filter id="f"><feImage href="https://evil.example/a.png"/></filter></svg>',
  'xml-stylesheet': '<?xml-stylesheet href="http://evil.example/x.xsl" type="text/xsl"?><svg xmlns="http://www.w3.org/2000/svg"/>',
  'style import': '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://evil.example/x.css);</style><rect/></svg>',
  'style external url': '<svg xmlns="http://www.w3.org/2000/svg"><style>rect { fill: url("https://evil.example/p.svg#g") }</style><rect/></svg>',
  'style escaped url': '<svg xmlns="http://www.w3.org/2000/svg"><style>rect { background: \\75 rl(https://evil.example/) }</style><rect/></svg>',
  'style attribute url': '<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(https://evil.example/q)" width="1" height="1"/></svg>',
  'presentation attribute url': '<svg xmlns="http://www.w3.org/2000/svg"><rect fill="url(https://evil.example/p.svg#g)" filter="url(//evil.example/f)" width="1" height="1"/></svg>',
  'nested svg onload': '<svg xmlns="http://www.w3.org/2000/svg"><svg onload="alert(1)"><rect/></svg></svg>',
  'html namespace script': '<svg xmlns="http://www.w3.org/2000/svg"><html:script xmlns:html="http://www.w3.org/1999/xhtml">alert(1)</html:script></svg>',
  'iframe in html namespace': '<svg xmlns="http://www.w3.org/2000/svg"><h:iframe xmlns:h="http://www.w3.org/1999/xhtml" src="https://evil.example/"/></svg>',
  'event handler on text': '<svg xmlns="http://www.w3.org/2000/svg"><text onclick="alert(1)" onmouseover="alert(2)">x</text></svg>',
  'handler in mixed case': '<svg xmlns="http://www.w3.org/2000/svg"><g OnLoAd="alert(1)"><rect/></g></svg>',
  'processing instruction inside': '<svg xmlns="http://www.w3.org/2000/svg"><?xml-stylesheet href="https://evil.example/x.css"?><rect/></svg>',
  'comment trick': '<svg xmlns="http://www.w3.org/2000/svg"><!--<script>alert(1)</script>--><rect/></svg>',
};

/** Documents that are not well-formed SVG: each must be refused. */
export const NOT_SVG: Record<string, string> = {
  'unclosed element': '<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>',
  'html page': '<html><body>hi</body></html>',
  'svg without namespace': '<svg><rect/></svg>',
  'script as root': '<script xmlns="http://www.w3.org/2000/svg">alert(1)</script>',
  'external entity (XXE)': '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>',
  'billion laughs': '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>',
  'plain text': 'just some words',
  'json': '{"svg": true}',
  'truncated': '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1"',
};

/** What must never survive in a stored SVG. */
export function expectInert(svg: string) {
  expect(svg).not.toMatch(/<script|<\w+:script/i);
  expect(svg).not.toMatch(/\son[a-z]+\s*=/i);
  expect(svg).not.toMatch(/foreignObject|<iframe|<\w+:iframe|<body/i);
  expect(svg).not.toMatch(/javascript:/i);
  expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org\/)|\/\/evil|evil\.example|127\.0\.0\.1|169\.254/i);
  expect(svg).not.toMatch(/@import|\\75|<\?xml-stylesheet|data:image\/svg/i);
  expect(svg.startsWith('<svg')).toBe(true);
}

/**
 * A valid PNG of exactly `size` bytes: a small image with a private ancillary chunk ("quIr",
 * which decoders skip) holding the padding, inserted before IEND.
 */
export async function pngOfSize(size: number): Promise<Buffer> {
  const png = await sampleImage('image/png', 16, 16);
  const iend = png.length - 12;
  const padding = size - png.length - 12; // 12 bytes of chunk length, type and CRC
  if (padding < 0) throw new Error(`cannot make a PNG of ${size} bytes`);
  const type = Buffer.from('quIr', 'latin1');
  const data = Buffer.alloc(padding, 0x2a);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(padding);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([type, data])) >>> 0);
  const result = Buffer.concat([png.subarray(0, iend), length, type, data, crc, png.subarray(iend)]);
  if (result.length !== size) throw new Error('size mismatch');
  return result;
}
