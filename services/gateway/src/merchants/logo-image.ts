import { LOGO_MAX_BYTES, LOGO_MAX_SIDE, type LogoContentType } from '@stablepay/contracts';
import { AppError, fieldDetail } from '@stablepay/platform';

/** A logo as its bytes say it is: the type from its signature, the size from its header. */
export interface InspectedImage {
  contentType: LogoContentType;
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** IHDR is the first chunk: length 13, then width and height (big-endian). */
const pngSize = (b: Buffer): [number, number] | undefined =>
  b.length >= 24 && b.readUInt32BE(8) === 13 && b.toString('latin1', 12, 16) === 'IHDR'
    ? [b.readUInt32BE(16), b.readUInt32BE(20)]
    : undefined;

/** Start-of-frame markers (C0–CF but DHT C4, JPG C8 and DAC CC) carry the frame's height and width. */
const isStartOfFrame = (marker: number): boolean =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Walks the segments up to the first start-of-frame. */
const jpegSize = (b: Buffer): [number, number] | undefined => {
  let at = 2;
  while (at + 9 <= b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined;
    const length = b.readUInt16BE(at + 2);
    if (isStartOfFrame(marker)) return [b.readUInt16BE(at + 7), b.readUInt16BE(at + 5)];
    at += 2 + length;
  }
  return undefined;
};

/** Lossy (VP8), lossless (VP8L) or extended (VP8X) WebP: each keeps the size in its own place. */
const webpSize = (b: Buffer): [number, number] | undefined => {
  if (b.length < 30) return undefined;
  switch (b.toString('latin1', 12, 16)) {
    case 'VP8 ':
      if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return undefined;
      return [b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff];
    case 'VP8L': {
      if (b[20] !== 0x2f) return undefined;
      const bits = b.readUInt32LE(21);
      return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
    }
    case 'VP8X':
      return [b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1];
    default:
      return undefined;
  }
};

const typeOf = (b: Buffer): LogoContentType | undefined => {
  if (b.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
};

const SIZE_OF: Record<LogoContentType, (b: Buffer) => [number, number] | undefined> = {
  'image/png': pngSize,
  'image/jpeg': jpegSize,
  'image/webp': webpSize,
};

const refused = (message: string, code: string): AppError =>
  new AppError('validation', 'Body validation failed', [fieldDetail('image', message, code)]);

/** Markup (SVG, HTML) begins with `<`, perhaps after a byte-order mark or white space. */
const looksLikeMarkup = (b: Buffer): boolean =>
  /^(\uFEFF)?\s*</.test(b.toString('utf8', 0, Math.min(b.length, 64)));

/**
 * What the uploaded bytes are, trusting nothing the caller said: PNG, JPEG or WebP by their
 * signature, of a size read from the image's header; 400 naming `image` for anything else
 * (SVG can carry script, so it is refused by name), an unreadable header, or a size over the limits.
 */
export const inspectLogo = (bytes: Buffer): InspectedImage => {
  if (bytes.length > LOGO_MAX_BYTES)
    throw refused(`must be at most ${LOGO_MAX_BYTES / 1024} KB`, 'image_too_large');
  const contentType = typeOf(bytes);
  if (!contentType) {
    throw looksLikeMarkup(bytes)
      ? refused('SVG and other markup are not accepted: upload a PNG, JPEG or WebP image', 'svg_not_allowed')
      : refused('must be a PNG, JPEG or WebP image', 'unsupported_image_type');
  }
  const size = SIZE_OF[contentType](bytes);
  if (!size || size[0] < 1 || size[1] < 1)
    throw refused(
      'the image header cannot be read: the file is damaged or not what it claims',
      'image_unreadable',
    );
  const [width, height] = size;
  if (width > LOGO_MAX_SIDE || height > LOGO_MAX_SIDE)
    throw refused(
      `must be at most ${LOGO_MAX_SIDE}×${LOGO_MAX_SIDE} pixels (this one is ${width}×${height})`,
      'image_dimensions_too_large',
    );
  return { contentType, width, height };
};
