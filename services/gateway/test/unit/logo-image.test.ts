import { expect } from 'chai';
import { jpegHeader, scriptedSvg, solidPng, webpHeader } from '@stablepay/platform/testing/images';
import { inspectLogo } from '../../src/merchants/logo-image.js';

/** The code of the one detail a refused logo is answered with. */
const refusal = (bytes: Buffer): string => {
  try {
    inspectLogo(bytes);
  } catch (err) {
    return (err as { details: Array<{ path: string; code: string }> }).details
      .map((d) => `${d.path}:${d.code}`)
      .join();
  }
  return 'accepted';
};

/**
 * The RIFF container of a WebP whose first chunk is `chunk`: the file size after the first 8 bytes,
 * little-endian, as a real file carries it.
 */
const riffWebp = (chunk: 'VP8 ' | 'VP8X'): Buffer => {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(b.length - 8, 4);
  b.write(`WEBP${chunk}`, 8, 'latin1');
  return b;
};

/** A lossy WebP (VP8) of `width`×`height`: its frame header after the key-frame start code. */
const lossyWebp = (width: number, height: number): Buffer => {
  const b = riffWebp('VP8 ');
  b.set([0x9d, 0x01, 0x2a], 23);
  b.writeUInt16LE(width, 26);
  b.writeUInt16LE(height, 28);
  return b;
};

/** An extended WebP (VP8X): the canvas size minus one, 24 bits each. */
const extendedWebp = (width: number, height: number): Buffer => {
  const b = riffWebp('VP8X');
  b.writeUIntLE(width - 1, 24, 3);
  b.writeUIntLE(height - 1, 27, 3);
  return b;
};

describe('logo images', () => {
  it('reads the type from the signature and the size from the header', () => {
    expect(inspectLogo(solidPng(40, 20))).to.deep.equal({ contentType: 'image/png', width: 40, height: 20 });
    expect(inspectLogo(jpegHeader(640, 480))).to.deep.equal({
      contentType: 'image/jpeg',
      width: 640,
      height: 480,
    });
    expect(inspectLogo(webpHeader(1024, 1))).to.deep.equal({
      contentType: 'image/webp',
      width: 1024,
      height: 1,
    });
    expect(inspectLogo(lossyWebp(300, 100))).to.deep.equal({
      contentType: 'image/webp',
      width: 300,
      height: 100,
    });
    expect(inspectLogo(extendedWebp(1000, 1000))).to.deep.equal({
      contentType: 'image/webp',
      width: 1000,
      height: 1000,
    });
  });

  it('walks JPEG segments and fill bytes to the frame header', () => {
    const header = jpegHeader(120, 90);
    // Fill bytes (0xFF) may stand before a marker.
    const filled = Buffer.concat([header.subarray(0, 2), Buffer.from([0xff, 0xff]), header.subarray(2)]);
    expect(inspectLogo(filled)).to.include({ width: 120, height: 90 });
    // A scan before any frame header: nothing to read the size from.
    expect(refusal(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 4, 0, 0, 0, 0, 0, 0]))).to.equal(
      'image:image_unreadable',
    );
  });

  it('refuses markup by name, other types, unreadable headers and sizes over the limits', () => {
    expect(refusal(scriptedSvg())).to.equal('image:svg_not_allowed');
    expect(refusal(Buffer.from('\uFEFF\n <html><script>1</script></html>'))).to.equal(
      'image:svg_not_allowed',
    );
    expect(refusal(Buffer.from('GIF89a'))).to.equal('image:unsupported_image_type');
    expect(refusal(Buffer.alloc(0))).to.equal('image:unsupported_image_type');
    expect(refusal(solidPng(4, 4).subarray(0, 16))).to.equal('image:image_unreadable');
    expect(refusal(lossyWebp(0, 10))).to.equal('image:image_unreadable');
    expect(refusal(extendedWebp(1025, 10))).to.equal('image:image_dimensions_too_large');
    expect(refusal(solidPng(10, 1025))).to.equal('image:image_dimensions_too_large');
    expect(refusal(Buffer.concat([solidPng(4, 4), Buffer.alloc(256 * 1024)]))).to.equal(
      'image:image_too_large',
    );
  });
});
