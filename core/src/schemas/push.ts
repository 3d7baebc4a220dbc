/**
 * Web Push: a device's subscription as the browser's `PushSubscription.toJSON()` gives
 * it, the answers of /api/push/*, and the payload the service worker shows. The server adds the
 * rules that need it: the push services' host names, a p256dh key on the curve.
 */
import { z } from 'zod';
import { MESSAGES } from '../messages.ts';

/** Longest endpoint accepted: real ones are about 200–500 characters. */
export const PUSH_ENDPOINT_MAX = 1000;
/** Devices one person may register; a new one past this is refused until one is removed. */
export const PUSH_DEVICES_MAX = 10;
/** Longest preview of a message or comment in a notification (characters). */
export const PUSH_PREVIEW_MAX = 80;
/** Longest device label. */
export const PUSH_LABEL_MAX = 60;

/**
 * A base64url key of exactly `bytes` bytes once decoded (RFC 8291: a P-256 public point is 65
 * bytes, the auth secret 16). Padding is dropped; the unpadded length fixes the byte count.
 */
function base64urlKey(bytes: number, message: string) {
  const chars = Math.ceil((bytes * 4) / 3);
  return z
    .string({ error: message })
    .max(chars + 3, { error: message, abort: true })
    .transform((v) => v.replace(/=+$/, ''))
    .pipe(z.string().regex(new RegExp(`^[A-Za-z0-9_-]{${chars}}$`), { error: message }));
}

export const pushEndpointSchema = z
  .string({ error: MESSAGES.push_endpoint_invalid })
  .max(PUSH_ENDPOINT_MAX, { error: MESSAGES.push_endpoint_invalid, abort: true })
  // zod's URL check (core has no DOM or Node types): http(s) only, a host name, no credentials.
  .pipe(z.url({ protocol: /^https?$/, error: MESSAGES.push_endpoint_invalid }))
  .refine((value) => !/^[a-z]+:\/\/[^/]*@/i.test(value), { error: MESSAGES.push_endpoint_invalid });

export const pushSubscriptionBodySchema = z.object(
  {
    endpoint: pushEndpointSchema,
    // Browsers send `expirationTime: null`; it is not used (an expired endpoint answers 404/410).
    expirationTime: z.number().nullable().optional(),
    keys: z.object(
      {
        // An uncompressed P-256 point starts with 0x04, i.e. 'B' in base64url (the server checks the curve).
        p256dh: base64urlKey(65, MESSAGES.push_keys_invalid).refine((v) => v.startsWith('B'), {
          error: MESSAGES.push_keys_invalid,
        }),
        auth: base64urlKey(16, MESSAGES.push_keys_invalid),
      },
      { error: MESSAGES.push_keys_invalid },
    ),
    label: z
      .string({ error: MESSAGES.push_label_invalid })
      .trim()
      .max(PUSH_LABEL_MAX, { error: MESSAGES.push_label_invalid })
      // Plain text: it is shown in lists and notifications, never as markup.
      .refine((v) => !/[<>]/.test(v), { error: MESSAGES.push_label_markup })
      .optional(),
  },
  { error: MESSAGES.push_endpoint_invalid },
);
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBodySchema>;

export const pushPreviewBodySchema = z.strictObject(
  { preview: z.boolean({ error: MESSAGES.bad_request }) },
  { error: MESSAGES.bad_request },
);

/** One of the caller's devices (the endpoint and keys never leave the server again). */
export const pushDeviceSchema = z.object({
  id: z.string(),
  label: z.string(),
  preview: z.boolean(),
  createdAt: z.string(),
});
export type PushDeviceDto = z.infer<typeof pushDeviceSchema>;

export const pushKeyResponseSchema = z.object({ publicKey: z.string() });
export const pushDeviceResponseSchema = z.object({ device: pushDeviceSchema });
export const pushDevicesResponseSchema = z.object({ devices: z.array(pushDeviceSchema) });
export const pushDeletedResponseSchema = z.object({ status: z.literal('deleted') });

/**
 * What a notification carries, encrypted for one device: the sender's nickname (or a generic
 * title), a short preview only when that device allows it, the path to open and a tag that
 * folds a conversation's notifications into one.
 */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
}

/**
 * The event a moderation outcome publishes for the people it concerns (their notices were just
 * written): the push module turns it into a notification; the web app may refetch the notices.
 */
export const MODERATION_NOTICE_EVENT = 'moderation.notice';
export interface ModerationNoticeEvent {
  kind: 'report_outcome' | 'statement' | 'appeal_outcome';
}
