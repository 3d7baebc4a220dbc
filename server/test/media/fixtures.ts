/** Image fixtures and a hand-built multipart body for the media tests. */
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A photo-like JPEG (gradient + noise), optionally with EXIF orientation, camera and GPS tags. */
export async function photo(
  width: number,
  height: number,
  options: { orientation?: number; gps?: boolean; quality?: number } = {},
): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const noise = (seed >> 16) & 15;
      const i = (y * width + x) * 3;
      raw[i] = ((x / width) * 220 + noise) | 0;
      raw[i + 1] = ((y / height) * 220 + noise) | 0;
      raw[i + 2] = 90 + noise;
    }
  }
  let image = sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: options.quality ?? 90 });
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  if (options.gps) {
    image = image.withExifMerge({
      IFD0: { Make: 'MoodCam', Model: 'Secret Phone 3000' },
      // IFD3 is the GPS directory: a position in Paris.
      IFD3: {
        GPSMapDatum: 'WGS-84',
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2400/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 21/1 300/100',
      },
    });
  }
  return image.toBuffer();
}

/** A solid image whose left half is red and right half blue (to check orientation). */
export async function halves(width: number, height: number, orientation?: number): Promise<Buffer> {
  const left = await sharp({ create: { width: width / 2, height, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  let image = sharp({ create: { width, height, channels: 3, background: '#0000ff' } })
    .composite([{ input: left, left: 0, top: 0 }])
    .jpeg({ quality: 95 });
  if (orientation) image = image.withMetadata({ orientation });
  return image.toBuffer();
}

export async function png(width: number, height: number, background = '#33aa55'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background } })
    .png()
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A decompression bomb: a valid 1-bit grayscale PNG of width × height pixels, all black,
 * whose rows deflate to almost nothing (20 000 × 20 000 = 400 MP in about 50 KB).
 */
export function pngBomb(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // grayscale
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A PNG whose header announces width × height pixels but whose pixel data stops after 16 bytes:
 * any decode of it fails (image_corrupt), so a refusal for its size can only come from the header.
 */
export function pngTruncated(width: number, height: number): Buffer {
  const whole = pngBomb(width, height);
  const idat = whole.subarray(41, 41 + whole.readUInt32BE(33));
  return Buffer.concat([
    whole.subarray(0, 33),
    pngChunk('IDAT', idat.subarray(0, 16)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface FormPart {
  name: string;
  value?: string;
  file?: { filename: string; contentType: string; body: Buffer };
}

/** A multipart/form-data body built by hand, as a browser would send it. */
export function multipart(parts: FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----moodmap${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (part.file) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.file.filename}"\r\nContent-Type: ${part.file.contentType}\r\n\r\n`,
        ),
      );
      chunks.push(part.file.body);
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value ?? ''}`));
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const payload = Buffer.concat(chunks);
  return {
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(payload.length) },
  };
}
