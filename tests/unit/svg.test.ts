import { sanitizeSvg, SvgRejected } from '../../src/plugins/quire/server/src/domain/svg';
import { expectInert, MALICIOUS_SVGS, NOT_SVG, SAMPLE_SVG } from '../helpers/images';

describe('sanitizeSvg', () => {
  it.each(Object.entries(MALICIOUS_SVGS))('neutralises %s', (_name, svg) => {
    const clean = sanitizeSvg(Buffer.from(svg));
    expectInert(clean);
  });

  it('keeps a harmless SVG intact: shapes, gradients, styles, local <use> references, text', () => {
    const clean = sanitizeSvg(Buffer.from(SAMPLE_SVG));
    for (const part of ['<linearGradient id="g">', 'fill="url(#g)"', 'xlink:href="#dot"', '<style>.label{', '>Quire</text>', 'viewBox="0 0 120 80"']) {
      expect(clean).toContain(part);
    }
  });

  it('keeps a raster data: image, a byte-order mark and an external DTD reference do not matter', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const svg = `\uFEFF<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg xmlns="http://www.w3.org/2000/svg"><image href="${png}" width="1" height="1"/></svg>`;
    const clean = sanitizeSvg(Buffer.from(svg));
    expect(clean).toContain(png);
    expect(clean).not.toContain('DOCTYPE');
  });

  it.each(Object.entries(NOT_SVG))('refuses %s', (_name, svg) => {
    expect(() => sanitizeSvg(Buffer.from(svg))).toThrow(SvgRejected);
  });

  it('refuses text that is not UTF-8, and says why', () => {
    const latin1 = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><text>caf\xe9</text></svg>', 'latin1');
    expect(() => sanitizeSvg(latin1)).toThrow('The SVG is not valid UTF-8 text.');
    expect(() => sanitizeSvg(Buffer.from(NOT_SVG['unclosed element']))).toThrow(/not well-formed XML/);
    expect(() => sanitizeSvg(Buffer.from(NOT_SVG['svg without namespace']))).toThrow(/root element must be <svg xmlns=/);
    expect(() => sanitizeSvg(Buffer.from(NOT_SVG['external entity (XXE)']))).toThrow(/entities/);
  });
});
