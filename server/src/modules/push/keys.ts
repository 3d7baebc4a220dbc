/**
 * A subscription's p256dh key must be a point of P-256 (RFC 8291): the payload is encrypted for
 * it, and a value off the curve would only make every send fail.
 */
import { createPublicKey } from 'node:crypto';

/** An uncompressed P-256 point, base64url: 65 bytes, 0x04, then x and y on the curve. */
export function isP256Point(key: string): boolean {
  const point = Buffer.from(key, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return false;
  try {
    createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}
